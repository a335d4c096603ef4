/**
 * No import circle across folders in `server/` and `src/` (issue 23): a circle that spans two folders
 * ties them into one unit, so neither can be read, tested or moved alone. Circles inside one folder are
 * left to that folder.
 *
 * The graph is read from the sources with a small scanner instead of `madge`: madge 8 does not install
 * beside TypeScript 7 (its optional peer `typescript@^5` conflicts, and TypeScript 7 has no JavaScript
 * API for its TypeScript parser to call), and the compiler API this check could otherwise use is gone in
 * TypeScript 7 too. The repository writes every relative import as a static `import`/`export … from`
 * at the start of a line or as `import('…')` with a literal, which is all the scanner reads; type-only
 * imports count (they tie folders together for a reader as much as value imports do).
 *
 * Run alone: `node --test test/node/server/import-circles.test.ts`.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const root = resolve(import.meta.dirname, '../../..');
const ROOTS = ['server', 'src'];
/** Build output, packages and generated client code: not the sources the check is about. */
const SKIP = new Set(['node_modules', 'dist']);

/** Relative specifiers of static imports, re-exports and literal dynamic imports. */
const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, found);
    else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** Each file's relative imports that resolve to a source file of the checked roots. */
export function importGraph(): Map<string, string[]> {
  const files = ROOTS.flatMap((folder) => sourceFiles(join(root, folder)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)]) {
      const target = resolve(dirname(file), match[1] ?? '');
      if (known.has(target)) targets.add(target);
      else if (!existsSync(target))
        assert.fail(`${relative(root, file)} imports ${match[1]}, which does not exist`);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each a set of files in a circle. */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('import circles', () => {
  it('finds a circle when there is one (the scanner reads the imports it should)', () => {
    const graph = new Map([
      ['/a/x.ts', ['/b/y.ts']],
      ['/b/y.ts', ['/b/z.ts']],
      ['/b/z.ts', ['/a/x.ts']],
      ['/c/w.ts', ['/a/x.ts']],
    ]);
    assert.deepEqual(
      circles(graph).map((files) => files.sort()),
      [['/a/x.ts', '/b/y.ts', '/b/z.ts']],
    );
    const sample = `import type { A } from './a.ts';\nimport {\n  b,\n  c,\n} from '../b.ts';\nexport * from './c.ts';\nimport './d.ts';\nconst e = await import('./e.ts');\n * import { f } from './f.ts';\n`;
    const read = [...sample.matchAll(IMPORT), ...sample.matchAll(DYNAMIC)].map((match) => match[1]);
    assert.deepEqual(read, ['./a.ts', '../b.ts', './c.ts', './d.ts', './e.ts']);
    assert.ok((importGraph().get(join(root, 'server/app.ts'))?.length ?? 0) > 5, 'server/app.ts has imports');
  });

  it('has none across folders in server/ and src/', () => {
    const across = circles(importGraph())
      .filter((files) => new Set(files.map((file) => dirname(file))).size > 1)
      .map((files) => files.map((file) => relative(root, file)).sort());
    assert.deepEqual(
      across,
      [],
      `import circles across folders:\n${across.map((files) => `  ${files.join(' → ')}`).join('\n')}`,
    );
  });
});
