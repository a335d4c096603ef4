import { readFile } from 'node:fs/promises';
import { extname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Thrown for every request the engine's `fetch` refuses: models must never come from the network. */
export class NetworkRefusedError extends TypeError {
  constructor(url: string) {
    super(`network refused: the vision engine loads models from node_modules only, not ${url}`);
    this.name = 'NetworkRefusedError';
  }
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/**
 * Replaces `globalThis.fetch` in the current thread with one that serves `file://` URLs under `root`
 * from disk and refuses everything else. Human and face-api load their models with `fetch` of
 * `file://` URLs, which Node's own `fetch` does not support; and a library that would quietly fall
 * back to a CDN fails loudly instead. Install it before any model library loads.
 *
 * @example
 * installOfflineFetch(modelRoot());
 * await fetch('https://cdn.jsdelivr.net/…') // rejects: network refused
 */
export function installOfflineFetch(root: string): void {
  const base = resolve(root);
  const offlineFetch = async (input: string | URL | Request): Promise<Response> => {
    const url = urlOf(input);
    if (!url.startsWith('file://')) throw new NetworkRefusedError(url);
    const path = resolve(fileURLToPath(url));
    const inside = relative(base, path);
    if (inside.startsWith('..') || resolve(base, inside) !== path) {
      throw new NetworkRefusedError(url);
    }
    try {
      const body = await readFile(path);
      return new Response(body, {
        status: 200,
        headers: { 'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' },
      });
    } catch {
      return new Response(null, { status: 404, statusText: 'Not Found' });
    }
  };
  globalThis.fetch = offlineFetch as typeof fetch;
}
