import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticAssets } from '../../static-assets.ts';
import { nodeFileAssets } from './node-file-assets.ts';
import { DEFAULT_DIST_DIR } from './node-widget-assets.ts';

const NAME = 'api-reference.js';

/**
 * Where `npm run build:server` (and the package's prepack) puts the API reference renderer, Scalar's
 * prebuilt browser bundle (scripts/build-server.ts): shipped in the @id-verify/server package, so an
 * installed server needs no renderer package at run time.
 */
export const PREBUILT_API_REFERENCE = join(DEFAULT_DIST_DIR, 'docs', NAME);

/**
 * The bundle to serve: the prebuilt copy, else (in the repository before a build) the one in the
 * `@scalar/api-reference` devDependency, else null. That package exports no path to its browser bundle:
 * found beside its resolved entry point.
 */
function apiReferenceBundle(): string | null {
  if (existsSync(PREBUILT_API_REFERENCE)) return PREBUILT_API_REFERENCE;
  try {
    const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
    return `${entry.slice(0, entry.lastIndexOf('/dist/'))}/dist/browser/standalone.js`;
  } catch {
    return null;
  }
}

/**
 * Serves the API reference bundle (4.35 MB) from disk, so the docs page never touches a CDN. Its
 * `.br`/`.gz` twins are not built: each is compressed once, at the first request that asks for it
 * (node-compression.ts RUNTIME_COMPRESSION, about half a second for brotli), and kept.
 */
export function nodeAssets(): StaticAssets {
  let bundle: string | null = null;
  return nodeFileAssets((path) => {
    const twin = path.slice(NAME.length);
    if (!path.startsWith(NAME) || !['', '.br', '.gz'].includes(twin)) return null;
    // Looked up again while missing, so a build after the start is picked up.
    bundle ??= apiReferenceBundle();
    return bundle === null ? null : `${bundle}${twin}`;
  });
}
