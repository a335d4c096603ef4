// @ts-check
/**
 * `npm run test:browser:mock`: the widget against the MSW mock in the browser (the Service Worker
 * intercepting, no server process). The project's config plus the middleware that serves the worker at
 * the root; once web-test-runner.config.mjs lists `mswWorkerMiddleware`, these files can join the main run.
 */
import { createReadStream, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import base from '../../../web-test-runner.config.mjs';
import { mswWorkerMiddleware } from './msw-worker-middleware.ts';

/** PGlite's Node-only code paths import Node built-ins dynamically; Vite externalises them, WTR needs a stub. */
const NODE_BUILTINS = new Set(builtinModules);

/**
 * CommonJS packages the server code imports (the mock runs the server's code in the page). Vite
 * pre-bundles these; web-test-runner serves files as they are, so they are bundled to ESM here.
 */
const COMMONJS_PACKAGES = ['i18n-iso-countries', 'debug'];

/** @type {import('@web/test-runner').TestRunnerPlugin} */
const commonJsAsEsm = {
  name: 'idv-commonjs-as-esm',
  resolveImport({ source }) {
    return COMMONJS_PACKAGES.includes(source) ? `/__cjs__/${source}.js` : undefined;
  },
  async serve(context) {
    const name = /^\/__cjs__\/(.+)\.js$/.exec(context.path)?.[1];
    if (!name || !COMMONJS_PACKAGES.includes(name)) return undefined;
    const result = await build({
      entryPoints: [name],
      bundle: true,
      format: 'esm',
      write: false,
      platform: 'browser',
    });
    return { body: result.outputFiles[0]?.text ?? '', type: 'js' };
  },
};

/** @type {import('@web/test-runner').TestRunnerPlugin} */
const nodeBuiltinStubs = {
  name: 'idv-node-builtin-stubs',
  resolveImport({ source }) {
    const name = source.startsWith('node:') ? source.slice(5) : source;
    return NODE_BUILTINS.has(name) ? '/test/browser/mock/node-builtin-stub.js' : undefined;
  },
};

const repoDir = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * PGlite fetches its file-system image (`pglite.data`) and WASM; the dev server would serve the binary
 * `.data` file as text (and corrupt it), so those bytes are streamed as they are.
 */
async function binaryAssets(ctx, next) {
  if (!/^\/node_modules\/@electric-sql\/pglite\/dist\/[\w.-]+\.(data|wasm)$/.test(ctx.path)) return next();
  const file = `${repoDir}${ctx.path.slice(1)}`;
  if (!existsSync(file)) return next();
  ctx.type = ctx.path.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
  ctx.body = createReadStream(file);
}

export default {
  ...base,
  files: [process.env.IDV_MOCK_TEST_FILES ?? '{test/browser/mock,test/browser/console}/**/*.mock-test.ts'],
  // msw and @mswjs/interceptors publish separate browser builds under the `browser` condition.
  nodeResolve: { exportConditions: ['browser'], browser: true },
  groups: [],
  plugins: [nodeBuiltinStubs, commonJsAsEsm, ...(base.plugins ?? [])],
  middleware: [binaryAssets, ...(base.middleware ?? []), mswWorkerMiddleware],
};
