import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { WidgetAssets } from '../../static-assets.ts';
import { strongEtag } from '../../http/static-asset.ts';
import { nodeFileAssets } from './node-file-assets.ts';
import { nodeVisionAssets } from './node-vision-assets.ts';

/** The name in `dir`'s package.json, or null without one. */
function packageNameAt(dir: string): unknown {
  const manifest = join(dir, 'package.json');
  return existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name
    : null;
}

/** The nearest folder at or above `from` whose package.json names `name`, or null. */
function packageRootAbove(from: string, name: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (packageNameAt(dir) === name) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The @id-verify/server package: server/ in the repository (this file is server/runtime/node/…), the installed
 * package in node_modules (this file compiled to dist/lib/server/runtime/node/…). Found by its package.json, so the
 * same code finds its built files from the sources and from the compiled copy.
 */
const SERVER_PACKAGE_DIR =
  packageRootAbove(import.meta.dirname, '@id-verify/server') ?? resolve(import.meta.dirname, '../..');

/**
 * `server/dist/web/`: where `npm run build` writes what only the server serves, the hosted page
 * (`hosted/`) and the console (`console/`); shipped in the @id-verify/server package.
 */
export const DEFAULT_DIST_DIR = join(SERVER_PACKAGE_DIR, 'dist', 'web');

/**
 * Where the script-tag bundle is, under `sdk/`: in the repository the widget's own `src/dist/` (what
 * `npm run build` writes, so a rebuilt widget is served at once), in the installed @id-verify/server
 * package its copy in DEFAULT_DIST_DIR (scripts/build-server.ts puts it there: the package installs and
 * serves without the `id-verify` package). Null when neither exists.
 */
export function widgetDistDir(): string | null {
  const sibling = resolve(SERVER_PACKAGE_DIR, '..', 'src');
  if (packageNameAt(sibling) === 'id-verify') return join(sibling, 'dist');
  return existsSync(join(DEFAULT_DIST_DIR, 'sdk')) ? DEFAULT_DIST_DIR : null;
}

/** A path under `root`, or null for one that resolves outside it. */
function inside(root: string, path: string): string | null {
  const file = resolve(root, path);
  return file.startsWith(root + sep) ? file : null;
}

/**
 * Serves the built widget files from disk, read once and kept in memory (a few hundred KB), with their
 * `.br`/`.gz` twins (node-file-assets.ts: from the build, else compressed once here). By default
 * `sdk/…` is the script-tag bundle (widgetDistDir) and everything else, the
 * hosted page, comes from DEFAULT_DIST_DIR; a `distDir` given holds both. A path is resolved inside its
 * folder only; anything else, or a missing file, is null. Paths under `sdk/vision/` are the liveness
 * step's face model, served from `node_modules` (node-vision-assets.ts), given an ETag here, computed
 * once per file.
 *
 * @example
 *   const assets = nodeWidgetAssets();
 *   await assets.get('sdk/id-verify.js'); // the script-tag bundle, or null before `npm run build`
 */
export function nodeWidgetAssets(distDir?: string, vision = nodeVisionAssets()): WidgetAssets {
  const root = resolve(distDir ?? DEFAULT_DIST_DIR);
  // Looked up again while missing, so a widget built (or installed) after the start is picked up.
  let sdkRoot = distDir === undefined ? null : join(root, 'sdk');
  const files = nodeFileAssets((path) => {
    if (!path.startsWith('sdk/')) return inside(root, path);
    if (sdkRoot === null) {
      const widget = widgetDistDir();
      if (widget === null) return null;
      sdkRoot = join(widget, 'sdk');
    }
    return inside(sdkRoot, path.slice('sdk/'.length));
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
