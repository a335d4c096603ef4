// `npm run build:demo` (part of `npm run build`): the demo shop for the real server's `/demo/`, into
// demo/dist/, which is all the server reads (server/runtime/node/node-demo-assets.ts):
//
//   1. the page (demo/index.html + tenant-page.ts, the widget included): `vite build --mode server`;
//   2. the shop backend (demo/tenant-backend.ts with `@id-verify/node`) as one ES module,
//      demo/dist/server/tenant-backend.js, which the development server imports to mount it at
//      `/demo/tenant/*`. Packages (hono) stay imports, resolved from the server's node_modules.
import { fileURLToPath } from 'node:url';
import { build as bundle } from 'esbuild';
import { build } from 'vite';

const demoDir = fileURLToPath(new URL('.', import.meta.url));

await build({ configFile: `${demoDir}vite.config.ts`, mode: 'server', logLevel: 'warn' });
await bundle({
  entryPoints: [`${demoDir}tenant-backend.ts`],
  outfile: `${demoDir}dist/server/tenant-backend.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  logLevel: 'warning',
});
console.log('demo: demo/dist/ (page) and demo/dist/server/tenant-backend.js (shop backend)');
