import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { WidgetAssets } from '../../static-assets.ts';

/**
 * Models of the liveness step's on-device guidance: face detection, face mesh (head pose, eyelids),
 * iris (finer eyelids for blink) and emotion (smile). Nothing else of Human's model folder is served.
 */
export const GUIDANCE_MODELS = ['blazeface', 'facemesh', 'iris', 'emotion'] as const;

/** The tfjs wasm backend's builds: plain, SIMD, and threaded SIMD (used only on cross-origin-isolated pages). */
const WASM_FILES = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
] as const;

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  bin: 'application/octet-stream',
  // WebAssembly.instantiateStreaming refuses any other type.
  wasm: 'application/wasm',
};

/** Weights (`.bin`) are float arrays gzip barely shrinks; everything else is worth compressing once. */
const COMPRESSIBLE = new Set(['js', 'json', 'wasm']);

const require = createRequire(import.meta.url);
/** On libuv's thread pool: gzipping the 2 MB bundle must not stall the event loop. */
const gzip = promisify(gzipCallback);

/** Installed Human: its version (the URL segment) and its package directory. */
export function installedHuman(): { version: string; dir: string } {
  // Human's `exports` has neither `./package.json` nor (valid) dist subpaths: resolve its Node entry
  // (`dist/human.node.js`) and climb to the package.
  const dir = dirname(dirname(require.resolve('@vladmandic/human')));
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return { version, dir };
}

/** The tfjs version Human's browser bundle was built with: its wasm backend must load wasm of that version. */
export function humanBundledTfjsVersion(humanDir: string): string | null {
  const source = readFileSync(join(humanDir, 'dist/tfjs.version.js'), 'utf8');
  const variable = /"tfjs-backend-wasm":(\w+)/.exec(source)?.[1];
  if (!variable) return null;
  return new RegExp(`var ${variable}="([^"]+)"`).exec(source)?.[1] ?? null;
}

/**
 * The files under `sdk/vision/` (the URL the widget builds is `/sdk/vision/human-<version>/…`):
 *
 * - `human-<v>/human.esm.js`: Human's browser ES bundle (it includes tfjs and its wasm backend glue)
 * - `human-<v>/models/<name>.json|.bin`: the guidance models only ({@link GUIDANCE_MODELS})
 * - `human-<v>/wasm/tfjs-backend-wasm*.wasm`: the wasm backend's binaries
 *
 * and, for each compressible one, a `<file>.gz` twin (gzipped once, then kept) the route sends with
 * `content-encoding: gzip` to browsers that accept it. The version in the path makes every URL
 * immutable: a new Human is a new URL. Everything comes from `node_modules`; nothing is downloaded.
 *
 * @example
 *   const assets = nodeVisionAssets();
 *   await assets.get('sdk/vision/human-3.3.6/models/blazeface.json'); // Response (application/json)
 *   await assets.get('sdk/vision/human-3.3.6/models/faceres.json');   // null: not a guidance model
 */
export function nodeVisionAssets(): WidgetAssets {
  const human = installedHuman();
  const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  const prefix = `sdk/vision/human-${human.version}/`;
  const files = new Map<string, string>([[`${prefix}human.esm.js`, join(human.dir, 'dist/human.esm.js')]]);
  for (const model of GUIDANCE_MODELS) {
    for (const ext of ['json', 'bin']) {
      files.set(`${prefix}models/${model}.${ext}`, join(human.dir, 'models', `${model}.${ext}`));
    }
  }
  for (const wasm of WASM_FILES) files.set(`${prefix}wasm/${wasm}`, join(wasmDir, wasm));

  // Read on first request and kept (≈ 10 MB with every model): the files are immutable for this process.
  const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
  const bytesOf = (path: string, compressed: boolean): Promise<Uint8Array<ArrayBuffer>> => {
    const key = compressed ? `${path}.gz` : path;
    let bytes = cache.get(key);
    if (!bytes) {
      const file = files.get(path) as string;
      bytes = readFile(file)
        .then((raw) => (compressed ? gzip(raw, { level: 9 }) : raw))
        .then((out) => new Uint8Array(out));
      // A failed read (file missing from a broken install) is retried on the next request.
      bytes.catch(() => cache.delete(key));
      cache.set(key, bytes);
    }
    return bytes;
  };

  return {
    async get(path) {
      const compressed = path.endsWith('.gz');
      const file = compressed ? path.slice(0, -'.gz'.length) : path;
      if (!files.has(file)) return null;
      const ext = file.slice(file.lastIndexOf('.') + 1);
      if (compressed && !COMPRESSIBLE.has(ext)) return null;
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await bytesOf(file, compressed);
      } catch {
        return null;
      }
      return new Response(bytes, {
        headers: { 'content-type': TYPES[ext] ?? 'application/octet-stream' },
      });
    },
  };
}
