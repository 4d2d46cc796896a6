import { createIntegration } from '@gitbook/runtime';

// Routes below the public endpoint, found as GitBook's own integrations
// find it (a router whose base is the endpoint's path).
export default createIntegration({
    fetch: async (request, context) => {
        const { environment } = context;
        const endpoint = environment.installation?.urls.publicEndpoint || environment.integration.urls.publicEndpoint;
        const url = new URL(request.url);
        const path = url.pathname.slice(new URL(endpoint).pathname.length) || '/';
        if (path === '/fail') {
            throw new Error('the signature of the webhook does not match');
        }
        console.log(`handled ${request.method} ${path}`);
        return new Response(
            JSON.stringify({
                path,
                method: request.method,
                query: url.searchParams.get('q'),
                body: request.method === 'GET' ? null : await request.text(),
                signature: request.headers.get('x-signature'),
                installation: environment.installation?.id ?? null,
            }),
            { status: 200, headers: { 'content-type': 'application/json' } },
        );
    },
});
