import { resolve, sep } from 'node:path';
import type { WidgetAssets } from '../../static-assets.ts';
import { nodeFileAssets } from './node-file-assets.ts';
import { DEFAULT_DIST_DIR } from './node-widget-assets.ts';

/** `server/dist/web/console/`: where `vite build --mode console` writes the console (shipped in @id-verify/server). */
export const DEFAULT_CONSOLE_DIR = resolve(DEFAULT_DIST_DIR, 'console');

/**
 * Serves the built console (`index.html`, `assets/*` and their `.br`/`.gz` twins) from disk, each file
 * read once and kept in memory (the whole console is a few hundred KB). A twin carries the content type
 * of the file it compresses; one the build did not write is compressed once in memory
 * (node-file-assets.ts). A path outside `dir`, or a missing file, is null; so is everything before the
 * build, which the console routes turn into a 503. index.html is re-read after a rebuild only by a
 * restart, like every other built file.
 *
 * @example
 *   const assets = nodeConsoleAssets();
 *   await assets.get('index.html'); // the page, or null before the console is built
 */
export function nodeConsoleAssets(dir = DEFAULT_CONSOLE_DIR): WidgetAssets {
  const root = resolve(dir);
  return nodeFileAssets((path) => {
    const file = resolve(root, path);
    return file.startsWith(root + sep) ? file : null;
  });
}
