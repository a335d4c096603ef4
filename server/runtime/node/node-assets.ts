import { fileURLToPath } from 'node:url';
import type { StaticAssets } from '../../app-deps.ts';
import { nodeFileAssets } from './node-file-assets.ts';

/** The package exports no path to its browser bundle, so find it beside the resolved entry point. */
function scalarBundlePath(): string {
  const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
  return `${entry.slice(0, entry.lastIndexOf('/dist/'))}/dist/browser/standalone.js`;
}

const NAME = 'api-reference.js';

/**
 * Serves the API reference bundle (4.35 MB) from node_modules, so the docs page never touches a CDN. Its
 * `.br`/`.gz` twins do not exist on disk: each is compressed once, at the first request that asks for it
 * (node-compression.ts RUNTIME_COMPRESSION, about half a second for brotli), and kept.
 */
export function nodeAssets(): StaticAssets {
  let bundle: string | undefined;
  return nodeFileAssets((path) => {
    const twin = path.slice(NAME.length);
    if (!path.startsWith(NAME) || !['', '.br', '.gz'].includes(twin)) return null;
    bundle ??= scalarBundlePath();
    return `${bundle}${twin}`;
  });
}
