// A small GitBook integration, built by integration_test.go the way
// GitBook's CLI builds one (see buildOptions in build.mjs).
import { createIntegration, createComponent } from '@gitbook/runtime';

const greeting = createComponent({
    componentId: 'greeting',
    render: async (element) => {
        return (
            <block>
                <text>Hello {element.props.name}</text>
            </block>
        );
    },
});

export default createIntegration({
    components: [greeting],
    events: {
        installation_setup: async (event, context) => {
            const res = await fetch(context.environment.apiEndpoint + '/v1/ping', {
                headers: { Authorization: 'Bearer ' + context.environment.apiTokens.installation },
            });
            const user = await context.api.user.getAuthenticatedUser();
            console.log(
                `installation ${context.environment.installation?.id} set up by ${user.data.displayName}: ping answered ${res.status} ${await res.text()}`,
            );
        },
    },
    fetch: async (request, context) => {
        const url = new URL(request.url);
        return new Response(
            JSON.stringify({
                path: url.pathname,
                query: url.searchParams.get('q'),
                method: request.method,
                body: await request.text(),
                integration: context.environment.integration.name,
            }),
            { status: 201, headers: { 'Content-Type': 'application/json' } },
        );
    },
});
