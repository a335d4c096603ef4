/**
 * The package map (issue 23): each npm workspace is one folder, each builds from its own folder into its
 * own `dist/`, and where one folder's sources reach into another's, it is one of the few reaches written
 * down here with the reason. A newcomer can then say from the tree which folder ships as which package:
 *
 *   src/            id-verify            the widget, built into src/dist/ (npm/, sdk/)
 *   server/         @id-verify/server    the API, and web/: the console and hosted page it serves,
 *                                        built into server/dist/ (lib/, web/)
 *   server/client/  @id-verify/node      the tenant backend kit, built into server/client/dist/
 *   mock/           @id-verify/mock      the server app behind MSW, built into mock/dist/
 *
 * Run alone: `node --test test/node/scripts/package-map.test.ts`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import type { ConfigEnv, UserConfig } from 'vite';

const root = resolve(import.meta.dirname, '../../..');
const manifest = (folder: string) => JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
const WORKSPACES: string[] = manifest('.').workspaces;

/** The workspace folder a repository path belongs to (the deepest one that holds it), or undefined. */
function workspaceOf(path: string): string | undefined {
  const rel = relative(root, path).split(sep).join('/');
  return WORKSPACES.filter((folder) => rel === folder || rel.startsWith(`${folder}/`)).sort(
    (a, b) => b.length - a.length,
  )[0];
}

/**
 * Reaches across workspace folders, each with why it is there. Each is a compile-time reach: the
 * importing package bundles or compiles the code into its own `dist/`, so the installed package never
 * loads a file of the other.
 */
const DECLARED_REACHES: Record<string, string> = {
  // The hosted page is the widget on a page; the console shows the same QR code and shares the widget's
  // design tokens and its i18n core (plural rules, direction), so both are built from the widget's
  // sources into server/dist/web.
  'server/web -> src': 'the server ships the widget (hosted page; the console’s styles and i18n core)',
  // Type-only (erased at build): the console's API shapes are the generated OpenAPI types of the kit.
  'server/web -> server/client': 'the console’s API types are the generated OpenAPI types',
  // One quality judgement (issue 22): the widget's live guidance and the server's gate run the same code.
  'server/features -> src': 'the server gate runs the widget’s capture-quality code',
  'server/runtime -> src': 'the in-page (mock) vision adapter runs the same capture-quality code',
  'server/domain -> src': 'the liveness judgement and the widget check frames by one contrast rule',
  // The mock is the server's app compiled for MSW: parity by construction, not by copying handlers.
  'mock -> server': 'the mock is the server app, compiled for the browser and Node tests',
};

const SKIP = new Set(['node_modules', 'dist']);
const IMPORT =
  /(?:^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?|\bimport\(\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, found);
    else if (/\.(ts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** `from-folder -> to-workspace` for every relative import that leaves its workspace. */
function reaches(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const workspace of WORKSPACES) {
    for (const file of sourceFiles(join(root, workspace))) {
      if (workspaceOf(file) !== workspace) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = resolve(dirname(file), match[1] ?? '');
        const to = workspaceOf(target);
        if (to === workspace) continue;
        // Name the importing folder one level into its workspace: `server/web`, `mock`.
        const inside = relative(join(root, workspace), file).split(sep);
        const from = inside.length > 1 ? `${workspace}/${inside[0]}` : workspace;
        const key = `${workspace === 'mock' ? 'mock' : from} -> ${to ?? relative(root, target)}`;
        found.set(key, [...(found.get(key) ?? []), relative(root, file)]);
      }
    }
  }
  return found;
}

async function viteBuild(mode: string): Promise<UserConfig> {
  const { default: config } = await import('../../../vite.config.ts');
  const env: ConfigEnv = { mode, command: 'build', isSsrBuild: false, isPreview: false };
  return typeof config === 'function' ? await config(env) : config;
}

describe('package map', () => {
  it('has one folder per workspace, and no workspace folder inside another but the client kit', () => {
    assert.deepEqual([...WORKSPACES].sort(), ['mock', 'server', 'server/client', 'src']);
    for (const folder of WORKSPACES)
      assert.ok(manifest(folder).name, `${folder}/package.json names a package`);
  });

  it('publishes only what each workspace builds into its own dist/', () => {
    for (const folder of WORKSPACES) {
      const files: string[] = manifest(folder).files;
      for (const entry of files.filter((file) => !file.startsWith('!') && file !== 'README.md')) {
        assert.match(entry, /^dist(\/|$)/, `${folder} publishes ${entry}, outside its dist/`);
      }
    }
  });

  it('builds each browser app from one workspace into that workspace’s dist/', async () => {
    const expected: Record<string, [string, string]> = {
      sdk: ['src', 'src/dist/sdk'],
      hosted: ['server', 'server/dist/web/hosted'],
      console: ['server', 'server/dist/web/console'],
    };
    for (const [mode, [workspace, outDir]] of Object.entries(expected)) {
      const config = await viteBuild(mode);
      assert.equal(relative(root, config.build?.outDir ?? ''), outDir, `${mode} builds into ${outDir}`);
      const input = config.build?.rollupOptions?.input;
      const sourceRoot = typeof input === 'string' ? dirname(input) : (config.root ?? root);
      assert.equal(workspaceOf(sourceRoot), workspace, `${mode} builds from ${workspace}`);
    }
  });

  it('keeps the console and hosted page with the package that ships them', () => {
    for (const app of ['console', 'hosted']) {
      assert.equal(workspaceOf(join(root, 'server/web', app, 'index.html')), 'server');
    }
    assert.deepEqual(
      readdirSync(join(root, 'src')).filter((name) => ['console', 'hosted'].includes(name)),
      [],
      'src/ is the widget only',
    );
  });

  it('reaches across workspace folders only where declared', () => {
    const found = reaches();
    const undeclared = [...found].filter(([key]) => !(key in DECLARED_REACHES));
    assert.deepEqual(
      undeclared.map(([key, files]) => `${key} (${files.slice(0, 3).join(', ')})`),
      [],
      'an import leaves its package: move the code, or declare the reach with its reason',
    );
    const stale = Object.keys(DECLARED_REACHES).filter((key) => !found.has(key));
    assert.deepEqual(stale, [], 'a declared reach is no longer used: remove it');
    assert.ok(!found.has('src -> server'), 'the widget compiles nothing of the server');
  });
});
