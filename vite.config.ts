/**
 * Two browser builds from one config (`npm run build` runs both):
 *
 * - `vite build --mode sdk`: the script-tag bundle, `dist/sdk/id-verify.js`, one ES module that defines
 *   `<id-verify>`; locales, the liveness step and the QR encoder are lazy chunks beside it.
 * - `vite build --mode hosted`: the hosted page (`src/hosted/index.html`) for `GET /verify/<token>`,
 *   with @vitejs/plugin-legacy for browsers without ES modules. Its inline loader scripts run under a
 *   per-response nonce the server adds (no 'unsafe-inline', no 'unsafe-eval').
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import legacy from '@vitejs/plugin-legacy';
import { defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;

/**
 * Makes plugin-legacy's inline loader scripts CSP-clean. Its modern-browser probe imports a `data:` URL,
 * which a `script-src` without `data:` blocks: modern browsers would then load the legacy bundle too.
 * The same check (import.meta.resolve support) runs as a plain statement instead. The server adds a
 * per-response nonce to every `<script>` (server/hosted), so no 'unsafe-inline' is needed.
 */
function cspSafeLegacyLoader(outDir: string): Plugin {
  return {
    name: 'idv-csp-safe-legacy-loader',
    apply: 'build',
    closeBundle() {
      const file = resolve(outDir, 'index.html');
      const page = readFileSync(file, 'utf8');
      const fixed = page.replace(
        /import\s*'data:text\/javascript,([^']*)';/g,
        (_all, code: string) => `${code};`,
      );
      if (/data:text\/javascript/.test(fixed)) throw new Error('hosted page still imports a data: URL');
      writeFileSync(file, fixed);
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'sdk') {
    return {
      publicDir: false,
      build: {
        outDir: resolve(root, 'dist/sdk'),
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        // An app build of one entry rather than library mode: library mode never strips whitespace
        // from ES output, and this file is served to browsers as is.
        modulePreload: false,
        rollupOptions: {
          input: resolve(root, 'src/cdn.ts'),
          output: { entryFileNames: 'id-verify.js', chunkFileNames: 'chunks/[name]-[hash].js' },
        },
      },
    };
  }
  if (mode === 'hosted') {
    const outDir = resolve(root, 'dist/hosted');
    return {
      root: resolve(root, 'src/hosted'),
      base: '/hosted/',
      publicDir: false,
      build: {
        outDir,
        emptyOutDir: true,
        sourcemap: true,
        // Keep the page's own CSS a file: the CSP has no 'unsafe-inline' for styles.
        assetsInlineLimit: 0,
      },
      plugins: [legacy({ targets: ['defaults', 'iOS >= 12', 'Safari >= 12'] }), cspSafeLegacyLoader(outDir)],
    };
  }
  throw new Error(`unknown build mode "${mode}": use --mode sdk or --mode hosted`);
});
