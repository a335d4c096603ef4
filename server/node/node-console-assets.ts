import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { WidgetAssets } from '../app-deps.ts';
import { DEFAULT_DIST_DIR } from './node-widget-assets.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** `dist/console/` of the repository: where `vite build --mode console` writes the console. */
export const DEFAULT_CONSOLE_DIR = resolve(DEFAULT_DIST_DIR, 'console');

/**
 * Serves the built console (`index.html`, `assets/*` and their `.gz` twins) from disk, each file read once
 * and kept in memory (the whole console is a few hundred KB). A `.gz` twin carries the content type of the
 * file it compresses. A path outside `dir`, or a missing file, is null; so is everything before the build,
 * which the console routes turn into a 503.
 *
 * @example
 *   const assets = nodeConsoleAssets();
 *   await assets.get('index.html'); // the page, or null before the console is built
 */
export function nodeConsoleAssets(dir = DEFAULT_CONSOLE_DIR): WidgetAssets {
  const root = resolve(dir);
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  return {
    async get(path) {
      const file = resolve(root, path);
      if (!file.startsWith(root + sep)) return null;
      let bytes = cache.get(file);
      if (!bytes) {
        try {
          bytes = new Uint8Array(await readFile(file));
        } catch {
          return null;
        }
        // index.html is re-read after a rebuild only by a restart, like every other built file.
        cache.set(file, bytes);
      }
      const type = TYPES[extname(file.endsWith('.gz') ? file.slice(0, -'.gz'.length) : file)];
      return new Response(bytes, { headers: { 'content-type': type ?? 'application/octet-stream' } });
    },
  };
}
