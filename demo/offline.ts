// `npm run demo:offline`: the demo with no id-verify server and no tenant server. MSW's Service Worker
// answers `/v1/*` from the real app (id-verify/mock/browser) and the tenant backend runs in the page
// behind the same worker. Only Vite runs, to serve the files.
//
//   1. `msw init demo/public --no-save` writes mockServiceWorker.js (generated, never hand-written, so it
//      always matches the installed msw version);
//   2. Vite serves demo/ with the hosted page at /verify/<token>, and the migrated database image a first
//      start loads instead of building its database in the page (demo/offline-database-image.ts).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const demoDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = fileURLToPath(new URL('..', import.meta.url));

const init = spawnSync('npx', ['msw', 'init', 'demo/public', '--no-save'], {
  cwd: repoDir,
  stdio: 'inherit',
});
if (init.status !== 0) throw new Error('msw init failed');

const port = Number(process.env['PORT'] ?? 5173);
const server = await createServer({ configFile: `${demoDir}vite.config.ts`, server: { port } });
await server.listen();
server.printUrls();
console.log(
  '\nOffline: no API server is running. In the console, try idvMock.scenarios and idvMock.fixtures.',
);
