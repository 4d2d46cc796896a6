import { createIntegration } from '@gitbook/runtime';

// Configuration set on the installation by the test: where to report
// (receiver) and where Folio's API is (folio).
type Config = { receiver?: string; folio?: string };

export default createIntegration({
    fetch: async () => new Response('hello from folio-cli-hello'),
    events: {
        installation_setup: async (event, context) => {
            const config = (context.environment.installation?.configuration ?? {}) as Config;
            console.log('installed', event.installationId);
            if (config.receiver) {
                await fetch(config.receiver + '/setup', {
                    method: 'POST',
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({ installationId: event.installationId }),
                });
            }
        },
        space_content_updated: async (event, context) => {
            const config = (context.environment.installation?.configuration ?? {}) as Config;
            const token = context.environment.apiTokens.installation;
            const res = await fetch(`${config.folio}/v1/spaces/${event.spaceId}`, {
                headers: { Authorization: `Bearer ${token}` },
            });
            const space = (await res.json()) as { title?: string };
            console.log('space', space.title);
            await fetch(config.receiver + '/content', {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ status: res.status, title: space.title, spaceId: event.spaceId }),
            });
        },
    },
});
