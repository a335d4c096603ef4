import { extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export interface CompressionSettings {
  /** 0–11; 11 is the smallest and by far the slowest. */
  brotliQuality: number;
  /** 1–9. */
  gzipLevel: number;
}

/** At build time (scripts/compress-assets.ts): the smallest files, whatever it costs once. */
export const BUILD_COMPRESSION: CompressionSettings = { brotliQuality: 11, gzipLevel: 9 };

/**
 * On a first request (the /docs bundle from node_modules, or a dist/ file whose twin the build did not
 * write): measured on the 4.35 MB Scalar bundle on a busy 2-core machine, quality 9 took 0.48 s for
 * 1.05 MB where 11 took 7.9 s for 0.94 MB; gzip 6 costs 85 ms for 1.26 MB.
 */
export const RUNTIME_COMPRESSION: CompressionSettings = { brotliQuality: 9, gzipLevel: 6 };

/** Text formats worth compressing; images, fonts and wasm weights are left as they are. */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.js',
  '.css',
  '.html',
  '.json',
  '.svg',
  '.map',
]);

export function isCompressible(path: string): boolean {
  return COMPRESSIBLE_EXTENSIONS.has(extname(path));
}

/** On libuv's thread pool: compressing a multi-megabyte bundle must not stall the event loop. */
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * `bytes` compressed with `coding` at `settings`' level.
 *
 * @example
 *   const br = await compressBytes('br', bytes, BUILD_COMPRESSION);
 */
export async function compressBytes(
  coding: 'br' | 'gzip',
  bytes: Uint8Array,
  settings: CompressionSettings,
): Promise<Uint8Array<ArrayBuffer>> {
  const out =
    coding === 'br'
      ? await brotliAsync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: settings.brotliQuality,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        })
      : await gzipAsync(bytes, { level: settings.gzipLevel });
  return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength);
}
