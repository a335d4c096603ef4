import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { WidgetAssets } from '../../static-assets.ts';
import { strongEtag } from '../../http/static-asset.ts';
import {
  type CompressionSettings,
  compressBytes,
  isCompressible,
  RUNTIME_COMPRESSION,
} from './node-compression.ts';

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

/** The twins static-asset.ts asks for (`TWIN_SUFFIX`), with the coding each holds. */
const TWINS = [
  ['.br', 'br'],
  ['.gz', 'gzip'],
] as const;

interface Variant {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}
/** A twin not worth having (compressed, the file is no smaller): remembered, so not recomputed. */
const NOT_SMALLER = 'not smaller';

async function readOrNull(file: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    return new Uint8Array(await readFile(file));
  } catch {
    return null;
  }
}

async function variant(bytes: Uint8Array<ArrayBuffer>): Promise<Variant> {
  return { bytes, etag: await strongEtag(bytes) };
}

/**
 * Files from disk as static-asset.ts consumes them: `get(path)` is the file, `get(path + '.br' | '.gz')`
 * its compressed twin. A twin is read from disk when the build wrote it (scripts/compress-assets.ts);
 * otherwise the file is compressed once in memory at `settings` (a dev who did not rebuild, a bundle in
 * node_modules), and a twin that would be no smaller is null. Every variant is read (or compressed) once,
 * with its ETag computed then, and kept: these files do not change under a running process. A missing
 * file is not remembered, so a build made after the start is picked up.
 *
 * `fileOf` maps a path to the file on disk, or null for a path outside what may be served.
 *
 * @example
 *   const assets = nodeFileAssets((path) => (path === 'a.js' ? '/srv/a.js' : null));
 *   await assets.get('a.js.br'); // brotli of /srv/a.js, from /srv/a.js.br when present
 */
export function nodeFileAssets(
  fileOf: (path: string) => string | null,
  settings: CompressionSettings = RUNTIME_COMPRESSION,
): WidgetAssets {
  const cache = new Map<string, Promise<Variant | typeof NOT_SMALLER | null>>();

  const load = async (path: string): Promise<Variant | typeof NOT_SMALLER | null> => {
    const file = fileOf(path);
    if (!file) return null;
    const onDisk = await readOrNull(file);
    if (onDisk) return variant(onDisk);
    const twin = TWINS.find(([suffix]) => path.endsWith(suffix));
    if (!twin) return null;
    const originalPath = path.slice(0, -twin[0].length);
    if (!isCompressible(originalPath)) return null;
    const original = await lookup(originalPath);
    if (!original || original === NOT_SMALLER) return null;
    const compressed = await compressBytes(twin[1], original.bytes, settings);
    return compressed.byteLength < original.bytes.byteLength ? variant(compressed) : NOT_SMALLER;
  };

  const lookup = (path: string) => {
    let pending = cache.get(path);
    if (!pending) {
      pending = load(path);
      cache.set(path, pending);
      // Misses and failures are retried on the next request; hits and "not smaller" are kept.
      pending.then(
        (found) => found === null && cache.delete(path),
        () => cache.delete(path),
      );
    }
    return pending;
  };

  return {
    async get(path) {
      const found = await lookup(path);
      if (!found || found === NOT_SMALLER) return null;
      const twin = TWINS.find(([suffix]) => path.endsWith(suffix));
      const type = TYPES[extname(twin ? path.slice(0, -twin[0].length) : path)];
      return new Response(found.bytes, {
        headers: { 'content-type': type ?? 'application/octet-stream', etag: found.etag },
      });
    },
  };
}
