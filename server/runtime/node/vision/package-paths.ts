import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The `node_modules` directory holding an installed package, found the way Node resolves bare
 * specifiers: the nearest one walking up from this file.
 */
function nodeModulesHolding(name: string): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return join(dir, 'node_modules');
    if (dirname(dir) === dir) throw new Error(`Package ${name} is not installed.`);
  }
}

/**
 * The directory of an installed npm package. Several model packages export only their default bundle
 * (or declare malformed `exports`), so the engine reaches their files by path.
 *
 * @example
 * packageDir('@vladmandic/human') // '/srv/id-verify/node_modules/@vladmandic/human'
 */
export function packageDir(name: string): string {
  return join(nodeModulesHolding(name), name);
}

/**
 * The `node_modules` directory the model packages are installed in: the only place the engine's
 * offline `fetch` serves files from.
 *
 * @example
 * modelRoot() // '/srv/id-verify/node_modules'
 */
export function modelRoot(): string {
  return nodeModulesHolding('@vladmandic/human');
}

/**
 * The version an installed package declares, for `EngineInfo.models`.
 *
 * @example
 * packageVersion('tesseract.js') // '7.0.0'
 */
export function packageVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
