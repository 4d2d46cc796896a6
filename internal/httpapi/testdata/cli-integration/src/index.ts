import { createIntegration } from '@gitbook/runtime';

export default createIntegration({
    fetch: async () => new Response('hello from folio-cli-hello'),
    events: {
        installation_setup: async (event, context) => {
            console.log('installed', event.installationId);
        },
    },
});
