// The server's layout rules that CONTRIBUTING.md ("Where things live") states, checked so they stay true:
// a route file never imports another route file (what two routes share lives in features/ or in a
// *-schemas.ts file), only the registries (index.ts, *-routes.ts) gather routes; and request state travels
// in Hono's typed variables (server/http/app-env.ts), not in side tables keyed by the request's context.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const SERVER = new URL('../../../server/', import.meta.url).pathname;
const ROUTES = join(SERVER, 'http/routes');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function relativeImports(source: string): string[] {
  return [...source.matchAll(/from '(\.\/[^']+)'/g)].map((match) => match[1] as string);
}

const isRegistry = (file: string) => file === 'index.ts' || file.endsWith('-routes.ts');
const isSharedSchema = (target: string) => target.endsWith('-schemas.ts') || target.startsWith('./schemas/');

describe('server layout', () => {
  it('has no route file importing another route file', () => {
    const files = readdirSync(ROUTES).filter((file) => file.endsWith('.ts'));
    assert.ok(files.length > 40, `expected the route files in ${ROUTES}`);
    const offences = files
      .filter((file) => !isRegistry(file))
      .flatMap((file) =>
        relativeImports(readFileSync(join(ROUTES, file), 'utf8'))
          .filter((target) => !isSharedSchema(target))
          .map((target) => `${file} imports ${target}`),
      );
    assert.deepEqual(offences, []);
  });

  it('keeps request state in Hono variables, not in tables keyed by the context', () => {
    const offences = sourceFiles(SERVER).filter((path) =>
      /new Weak(Map|Set)<\s*Context\b/.test(readFileSync(path, 'utf8')),
    );
    assert.deepEqual(
      offences.map((path) => relative(SERVER, path)),
      [],
    );
  });
});
