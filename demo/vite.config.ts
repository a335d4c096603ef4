/**
 * Vite for the demo, two ways:
 *
 * - `npm run demo:offline` (dev server): the shop page and the hosted page with the mock Service Worker
 *   behind them. The hosted page lives at `/verify/<token>` as on the real server, so its path is
 *   rewritten to demo/hosted.html. `node:crypto` is demo/node-shims/crypto.ts: the shop backend's
 *   `@id-verify/node` runs in the page.
 * - `vite build --config demo/vite.config.ts --mode server` (part of `npm run build`, see demo/build.ts):
 *   the shop page alone, for the real server's `/demo/` (server/http/pages/demo/), into demo/dist/. No mock, no
 *   shop backend in it (the server runs that), no inline script or style (the page's CSP has no
 *   'unsafe-inline').
 */
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { DATABASE_IMAGE_PATH, migratedDatabaseImage } from './offline-database-image.ts';

const demoDir = import.meta.dirname;
export const DEMO_DIST_DIR = resolve(demoDir, 'dist');

/**
 * The hosted page at `/verify/<token>`; the migrated database image the page starts from
 * (offline-database-image.ts); and a plain 404 for `/sdk/…`: offline there is no face model to
 * serve (the mock's vision is a stand-in), and Vite's HTML fallback would hand the widget a page where
 * it asks for a module; on a 404 it goes on without guidance, as on a server without the model.
 */
function hostedPageRoute(): Plugin {
  return {
    name: 'idv-demo-hosted-page-route',
    configureServer(server) {
      // Made while Vite starts and the browser loads the page's modules: ready before the page asks.
      migratedDatabaseImage().catch(() => {});
      server.middlewares.use((request, response, next) => {
        if (request.url?.startsWith('/sdk/')) {
          response.statusCode = 404;
          response.end();
          return;
        }
        if (request.url === DATABASE_IMAGE_PATH) {
          migratedDatabaseImage().then(
            (bytes) => {
              response.setHeader('content-type', 'application/gzip');
              response.setHeader('cache-control', 'no-store');
              response.end(bytes);
            },
            (error: unknown) => next(error),
          );
          return;
        }
        if (request.url && /^\/verify\/[^/?]+\/?(\?.*)?$/.test(request.url)) request.url = '/hosted.html';
        next();
      });
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'server') {
    return {
      root: demoDir,
      base: '/demo/',
      publicDir: false,
      build: {
        outDir: DEMO_DIST_DIR,
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        // Styles stay files and no preload polyfill is inlined: the page's CSP allows 'self' only.
        assetsInlineLimit: 0,
        modulePreload: { polyfill: false },
        rollupOptions: { input: { index: resolve(demoDir, 'index.html') } },
      },
    };
  }
  return {
    root: demoDir,
    publicDir: resolve(demoDir, 'public'),
    plugins: [hostedPageRoute()],
    resolve: { alias: { 'node:crypto': resolve(demoDir, 'node-shims/crypto.ts') } },
    server: { fs: { allow: [resolve(demoDir, '..')] } },
    optimizeDeps: {
      // Both pages are crawled at start-up, so every dependency is pre-bundled before the first page
      // asks: found one by one on a cold start, each new one made Vite re-bundle and reload the page.
      entries: ['index.html', 'hosted.html'],
      // PGlite ships its own WASM and data files; pre-bundling would separate them from its loader.
      exclude: ['@electric-sql/pglite'],
    },
  };
});
