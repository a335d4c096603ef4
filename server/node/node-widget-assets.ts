import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WidgetAssets } from '../app-deps.ts';
import { strongEtag } from '../http/static-asset.ts';
import { nodeFileAssets } from './node-file-assets.ts';
import { nodeVisionAssets } from './node-vision-assets.ts';

/** `dist/` of the repository: where `npm run build` writes the hosted page and the script-tag bundle. */
export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * Serves the built widget files (`npm run build`) from disk, read once and kept in memory (a few hundred
 * KB), with their `.br`/`.gz` twins (node-file-assets.ts: from the build, else compressed once here). A
 * path is resolved inside `distDir` only; anything else, or a missing file, is null. Paths under
 * `sdk/vision/` are the liveness step's face model, served from `node_modules` (node-vision-assets.ts),
 * given an ETag here, computed once per file.
 *
 * @example
 *   const assets = nodeWidgetAssets();
 *   await assets.get('sdk/id-verify.js'); // the script-tag bundle, or null before `npm run build`
 */
export function nodeWidgetAssets(distDir = DEFAULT_DIST_DIR, vision = nodeVisionAssets()): WidgetAssets {
  const root = resolve(distDir);
  const files = nodeFileAssets((path) => {
    const file = resolve(root, path);
    return file.startsWith(root + sep) ? file : null;
  });
  // The model files are immutable for this process (a versioned path): hash each variant once.
  const visionEtags = new Map<string, string>();
  const fromVision = async (path: string): Promise<Response | null> => {
    const response = await vision.get(path);
    if (!response) return null;
    const known = visionEtags.get(path);
    if (known) {
      response.headers.set('etag', known);
      return response;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const etag = await strongEtag(bytes);
    visionEtags.set(path, etag);
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    return new Response(bytes, { headers: { 'content-type': type, etag } });
  };
  return {
    get: (path) => (path.startsWith('sdk/vision/') ? fromVision(path) : files.get(path)),
  };
}
