// Bundles index.tsx with the options GitBook's CLI (@gitbook/cli) uses to
// build an integration's script.
import * as esbuild from 'esbuild';

await esbuild.build({
    entryPoints: ['index.tsx'],
    outfile: 'script.js',
    platform: 'neutral',
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    mainFields: ['worker', 'browser', 'module', 'jsnext', 'main'],
    conditions: ['worker', 'browser', 'import', 'production'],
    define: {
        'process.env.NODE_ENV': '"production"',
        MODE: '"production"',
    },
    external: ['node:*', 'cloudflare:*'],
    jsx: 'automatic',
    jsxImportSource: '@gitbook/runtime',
    logLevel: 'warning',
});
