/**
 * Three browser builds from one config (`npm run build` runs all three):
 *
 * - `vite build --mode sdk`: the script-tag bundle, `src/dist/sdk/id-verify.js` (shipped in the `id-verify`
 *   package, served by the server at /sdk/id-verify.js), one ES module that defines
 *   `<id-verify>`; locales, the liveness step and the QR encoder are lazy chunks beside it.
 * - `vite build --mode hosted`: the hosted page (`server/web/hosted/index.html`) for `GET /verify/<token>`, in
 *   `server/dist/web/hosted` (shipped in @id-verify/server),
 *   with @vitejs/plugin-legacy for browsers without ES modules. Its inline loader scripts run under a
 *   per-response nonce the server adds (no 'unsafe-inline', no 'unsafe-eval').
 * - `vite build --mode console`: the tenant staff's console (`server/web/console`), served at `/console`, in
 *   `server/dist/web/console` (shipped in @id-verify/server).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import legacy from '@vitejs/plugin-legacy';
import { defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;

/**
 * Makes plugin-legacy's inline loader scripts CSP-clean. Its modern-browser probe imports a `data:` URL,
 * which a `script-src` without `data:` blocks: modern browsers would then load the legacy bundle too.
 * The same check (import.meta.resolve support) runs as a plain statement instead. The server adds a
 * per-response nonce to every `<script>` (server/http/pages/hosted), so no 'unsafe-inline' is needed.
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
        outDir: resolve(root, 'src/dist/sdk'),
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
    const outDir = resolve(root, 'server/dist/web/hosted');
    return {
      root: resolve(root, 'server/web/hosted'),
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
  if (mode === 'console') {
    // The tenant staff's console (server/web/console), served by the server at /console with a strict CSP: one
    // module entry, each screen and locale a lazy chunk, hashed files under /console/assets/ (immutable).
    // The plugin below prints the gzip size of what each first page loads, fails the build when one
    // exceeds the budget, and writes `.gz` twins the server sends to browsers that accept gzip.
    const outDir = resolve(root, 'server/dist/web/console');
    const FIRST_SCREEN_BUDGET = 120 * 1024;
    /** Pages a session can open on: the login, and each role's `default_path` (API.md §3). */
    const FIRST_SCREENS = ['login', 'dashboard', 'sessions', 'review'];
    const consoleGzipReport: Plugin = {
      name: 'idv-console-gzip-report',
      apply: 'build',
      // After Vite's own generateBundle hooks (order: 'post'): they still rewrite the chunks' code (the
      // `__VITE_PRELOAD__` marker of every lazy import), and the `.gz` twins and sizes must be of the
      // final files, or browsers that accept gzip get a console whose lazy screens fail to load.
      generateBundle: {
        order: 'post',
        handler(_options, bundle) {
          const gz = new Map<string, number>();
          for (const file of Object.values(bundle)) {
            if (!/\.(js|css)$/.test(file.fileName)) continue;
            const source = file.type === 'chunk' ? file.code : file.source;
            const zipped = gzipSync(typeof source === 'string' ? source : Buffer.from(source), { level: 9 });
            gz.set(file.fileName, zipped.length);
            this.emitFile({ type: 'asset', fileName: `${file.fileName}.gz`, source: zipped });
          }
          const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
          const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
          /** A chunk and everything it imports statically: what the browser must load before it runs. */
          const closure = (start: string, seen = new Set<string>()): Set<string> => {
            if (seen.has(start)) return seen;
            seen.add(start);
            for (const next of byName.get(start)?.imports ?? []) closure(next, seen);
            return seen;
          };
          const size = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + (gz.get(f) ?? 0), 0);
          const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
          const entry = chunks.find((chunk) => chunk.isEntry);
          if (!entry) throw new Error('console build has no entry chunk');
          const initial = closure(entry.fileName);
          const lines = [`console JS (gzip): entry with its static imports ${kb(size(initial))}`];
          let worst = 0;
          for (const screen of FIRST_SCREENS) {
            const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(`/screens/${screen}-screen.ts`));
            if (!chunk) throw new Error(`console build has no chunk for the ${screen} screen`);
            const total = size(closure(chunk.fileName, new Set(initial)));
            worst = Math.max(worst, total);
            lines.push(`  first screen ${screen.padEnd(10)} ${kb(total)}`);
          }
          const all = chunks.map((chunk) => chunk.fileName);
          lines.push(
            `  whole app (every chunk)  ${kb(size(all))}; CSS ${kb(size([...gz.keys()].filter((f) => f.endsWith('.css'))))}`,
          );
          this.info(`\n${lines.join('\n')}`);
          if (worst > FIRST_SCREEN_BUDGET) {
            this.error(
              `a first screen loads ${kb(worst)} of JS (gzip), over the ${kb(FIRST_SCREEN_BUDGET)} budget`,
            );
          }
        },
      },
    };
    return {
      root: resolve(root, 'server/web/console'),
      base: '/console/',
      publicDir: false,
      build: {
        outDir,
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        // Styles stay files: the CSP has no 'unsafe-inline'. Every browser the console supports has
        // modulepreload, so no polyfill is bundled.
        assetsInlineLimit: 0,
        modulePreload: { polyfill: false },
      },
      plugins: [consoleGzipReport],
    };
  }
  throw new Error(`unknown build mode "${mode}": use --mode sdk, --mode hosted or --mode console`);
});
