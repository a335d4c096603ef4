import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createDemoHost,
  type DemoHost,
  type DemoTenantBackendModule,
} from '../../http/pages/demo/demo-host.ts';
import { nodeFileAssets } from './node-file-assets.ts';

/**
 * `demo/dist/` of the repository: where `npm run build` (demo/build.ts) writes the demo shop, the page
 * (`index.html`, `assets/*`) and its backend (`server/tenant-backend.js`). A development tool only: the
 * published server package does not carry it, and a production server never reads it.
 */
export const DEFAULT_DEMO_DIR = resolve(import.meta.dirname, '../../../demo/dist');

/**
 * Whether this server runs in the repository, where the demo shop's sources (demo/) are and
 * `npm run build` makes it: an installed @id-verify/server has no demo by design, so no /demo routes
 * and nothing to say about it.
 */
export function demoShopBuildable(): boolean {
  return existsSync(resolve(import.meta.dirname, '../../../demo/build.ts'));
}

/**
 * The demo shop of a development server (`AppDeps.demo`, server/http/pages/demo/): its built page served from disk
 * (read once, kept in memory, `.br`/`.gz` twins as node-file-assets.ts makes them), and its backend,
 * imported from the build when server/node.ts starts it. `server/…` under `dir` is the backend's code,
 * never served as a page asset. Before `npm run build` the page is a 503 saying so.
 *
 * @example
 *   const demo = nodeDemoHost();
 *   await demo.start({ apiBase: server.url, pageUrl: `${baseUrl}/demo/`, apiKey });
 */
export function nodeDemoHost(dir = DEFAULT_DEMO_DIR): DemoHost {
  const root = resolve(dir);
  const assets = nodeFileAssets((path) => {
    const file = resolve(root, path);
    if (!file.startsWith(root + sep) || file.startsWith(join(root, 'server') + sep)) return null;
    return file;
  });
  return createDemoHost({
    assets,
    loadBackend: () =>
      import(
        pathToFileURL(join(root, 'server', 'tenant-backend.js')).href
      ) as Promise<DemoTenantBackendModule>,
  });
}
