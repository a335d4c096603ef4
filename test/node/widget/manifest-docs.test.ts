import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CSS_PROPERTY_NAMES, PART_NAMES } from './styling-surface.ts';

const root = resolve(import.meta.dirname, '../../..');
const analyzer = join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js');

interface Named {
  name?: string;
  description?: string;
}
interface Member extends Named {
  kind: 'field' | 'method';
  privacy?: 'public' | 'private' | 'protected';
  static?: boolean;
}
interface Declaration extends Named {
  tagName?: string;
  attributes?: Named[];
  members?: Member[];
  events?: Named[];
  slots?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
}
interface Manifest {
  modules: { path: string; declarations?: Declaration[] }[];
}

/**
 * The analyzer run with the flags `npm run build:npm` gives it, into a temporary folder. Its `--outdir`
 * is joined to the working directory, hence the relative path. A config file turns off its default of
 * writing `customElements` into the package.json of the working directory (the repository's).
 */
function analyze(outDir: string): Manifest {
  const config = join(outDir, 'custom-elements-manifest.config.mjs');
  writeFileSync(config, 'export default { packagejson: false };\n');
  execFileSync(
    process.execPath,
    [
      analyzer,
      'analyze',
      '--config',
      config,
      '--litelement',
      '--globs',
      'src/**/*.ts',
      '--exclude',
      'src/dist/**',
      '--outdir',
      relative(root, outDir),
      '--quiet',
    ],
    { cwd: root, stdio: 'pipe' },
  );
  return JSON.parse(readFileSync(join(outDir, 'custom-elements.json'), 'utf8')) as Manifest;
}

/** The names in a docs section's tables: backticked text of the columns headed by one of `columns`. */
function documented(markdown: string, heading: string, columns: readonly string[]): Map<string, string> {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `docs/embedding.md has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const names = new Map<string, string>();
  let header: string[] | null = null;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      header = null;
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    if (!header) {
      header = cells.map((cell) => cell.toLowerCase());
      continue;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    const description = cells.at(-1) ?? '';
    for (const [index, title] of header.entries()) {
      if (!columns.includes(title)) continue;
      const name = /^`([^`]+)`$/.exec(cells[index] ?? '')?.[1];
      if (name) names.set(name.replace(/\(\)$/, ''), description);
    }
  }
  return names;
}

function sorted(names: Iterable<string>): string[] {
  return [...names].sort();
}

describe('custom-elements manifest of <id-verify> and docs/embedding.md', () => {
  let outDir = '';
  let element: Declaration;
  let docs = '';

  before(() => {
    outDir = mkdtempSync(join(tmpdir(), 'idv-cem-'));
    const packageJson = readFileSync(join(root, 'package.json'), 'utf8');
    const manifest = analyze(outDir);
    assert.equal(
      readFileSync(join(root, 'package.json'), 'utf8'),
      packageJson,
      'the analyzer left package.json alone',
    );
    const found = manifest.modules
      .flatMap((module) => module.declarations ?? [])
      .find((declaration) => declaration.tagName === 'id-verify');
    assert.ok(found, 'the manifest declares <id-verify>');
    element = found;
    docs = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
  });
  after(() => rmSync(outDir, { recursive: true, force: true }));

  /** Public API members: what a tenant may read, set or call (no private, protected or static ones). */
  function publicMembers(): Member[] {
    return (element.members ?? []).filter(
      (member) =>
        !member.static && (member.privacy ?? 'public') === 'public' && !member.name?.startsWith('#'),
    );
  }

  it('lists only the public API: no internal state as a property or attribute', () => {
    assert.deepEqual(sorted(publicMembers().map((m) => m.name ?? '')), [
      'allowUpload',
      'api',
      'apiBase',
      'locale',
      'pollInterval',
      'proceed',
      'session',
      'state',
      'theme',
      'token',
      'verifyUrl',
    ]);
    assert.deepEqual(sorted((element.attributes ?? []).map((a) => a.name ?? '')), [
      'allow-upload',
      'api-base',
      'locale',
      'theme',
      'token',
      'verify-url',
    ]);
  });

  it('describes every attribute, property, event, part, CSS property and slot', () => {
    const lists: [string, Named[]][] = [
      ['attribute', element.attributes ?? []],
      ['property', publicMembers()],
      ['event', element.events ?? []],
      ['part', element.cssParts ?? []],
      ['CSS property', element.cssProperties ?? []],
      ['slot', element.slots ?? []],
    ];
    for (const [kind, entries] of lists) {
      for (const entry of entries) {
        assert.ok(entry.name, `a ${kind} without a name: ${JSON.stringify(entry)}`);
        assert.ok(entry.description?.trim(), `${kind} ${entry.name} has no description`);
      }
    }
  });

  const sections: [string, string, readonly string[], (element: Declaration) => Named[]][] = [
    ['attributes', 'Attributes and properties', ['attribute'], (e) => e.attributes ?? []],
    ['properties', 'Attributes and properties', ['property', 'member'], (e) => e.members ?? []],
    ['events', 'Events', ['event'], (e) => e.events ?? []],
    ['slots', 'Slots', ['slot'], (e) => e.slots ?? []],
    ['CSS parts', 'CSS parts', ['part'], (e) => e.cssParts ?? []],
    ['CSS custom properties', 'CSS custom properties', ['property'], (e) => e.cssProperties ?? []],
  ];
  for (const [kind, heading, columns, pick] of sections) {
    it(`docs/embedding.md documents exactly the manifest's ${kind}, each with a description`, () => {
      const inManifest =
        kind === 'properties'
          ? publicMembers().map((m) => m.name ?? '')
          : pick(element).map((n) => n.name ?? '');
      const inDocs = documented(docs, heading, columns);
      const missing = inManifest.filter((name) => !inDocs.has(name));
      const extra = [...inDocs.keys()].filter((name) => !inManifest.includes(name));
      assert.deepEqual(missing, [], `in the manifest, not in docs/embedding.md (## ${heading})`);
      assert.deepEqual(extra, [], `in docs/embedding.md (## ${heading}), not in the manifest`);
      for (const [name, description] of inDocs) {
        assert.ok(description && description !== '–', `docs/embedding.md: ${name} has no description`);
      }
    });
  }

  it('the styling surface the browser test checks is the manifest`s parts and CSS properties', () => {
    assert.deepEqual(sorted((element.cssParts ?? []).map((p) => p.name ?? '')), sorted(PART_NAMES));
    assert.deepEqual(
      sorted((element.cssProperties ?? []).map((p) => p.name ?? '')),
      sorted(CSS_PROPERTY_NAMES),
    );
  });

  it('the documents parser finds what it is pointed at (a check that cannot pass on an empty section)', () => {
    const sample = '\n## Things\n\n| part | what |\n| --- | --- |\n| `a` | the a |\n| `b` | |\n\n## Next\n';
    assert.deepEqual(
      [...documented(sample, 'Things', ['part'])],
      [
        ['a', 'the a'],
        ['b', ''],
      ],
    );
  });
});
