/**
 * Vite for the demo (`npm run demo:offline`). The hosted page lives at `/verify/<token>` as on the real
 * server, so its path is rewritten to demo/hosted.html; everything else is plain static serving.
 */
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const demoDir = import.meta.dirname;

function hostedPageRoute(): Plugin {
  return {
    name: 'idv-demo-hosted-page-route',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (request.url && /^\/verify\/[^/?]+\/?(\?.*)?$/.test(request.url)) request.url = '/hosted.html';
        next();
      });
    },
  };
}

export default defineConfig({
  root: demoDir,
  publicDir: resolve(demoDir, 'public'),
  plugins: [hostedPageRoute()],
  server: { fs: { allow: [resolve(demoDir, '..')] } },
  // PGlite ships its own WASM and data files; pre-bundling would separate them from its loader.
  optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  build: {
    outDir: resolve(demoDir, '../dist/demo'),
    rollupOptions: {
      input: { index: resolve(demoDir, 'index.html'), hosted: resolve(demoDir, 'hosted.html') },
    },
  },
});
