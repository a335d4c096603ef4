import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { StaticAssets } from '../app-deps.ts';

/** The package exports no path to its browser bundle, so find it beside the resolved entry point. */
function scalarBundlePath(): string {
  const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
  return `${entry.slice(0, entry.lastIndexOf('/dist/'))}/dist/browser/standalone.js`;
}

/** Serves the API reference bundle from node_modules: the docs page never touches a CDN. */
export function nodeAssets(): StaticAssets {
  let cached: Uint8Array | undefined;
  return {
    async get(name) {
      if (name !== 'api-reference.js') return null;
      cached ??= await readFile(scalarBundlePath());
      return new Response(cached as Uint8Array<ArrayBuffer>, {
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=86400',
        },
      });
    },
  };
}
