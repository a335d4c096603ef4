import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WidgetAssets } from '../app-deps.ts';
import { nodeVisionAssets } from './node-vision-assets.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** `dist/` of the repository: where `npm run build` writes the hosted page and the script-tag bundle. */
export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * Serves the built widget files (`npm run build`) from disk, read once and kept in memory (a few hundred
 * KB). A path is resolved inside `distDir` only; anything else, or a missing file, is null. Paths under
 * `sdk/vision/` are the liveness step's face model, served from `node_modules` (node-vision-assets.ts).
 *
 * @example
 *   const assets = nodeWidgetAssets();
 *   await assets.get('sdk/id-verify.js'); // the script-tag bundle, or null before `npm run build`
 */
export function nodeWidgetAssets(distDir = DEFAULT_DIST_DIR, vision = nodeVisionAssets()): WidgetAssets {
  const root = resolve(distDir);
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  return {
    async get(path) {
      if (path.startsWith('sdk/vision/')) return vision.get(path);
      const file = resolve(root, path);
      if (!file.startsWith(root + sep)) return null;
      let bytes = cache.get(file);
      if (!bytes) {
        try {
          bytes = new Uint8Array(await readFile(file));
        } catch {
          return null;
        }
        cache.set(file, bytes);
      }
      return new Response(bytes, {
        headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
      });
    },
  };
}
