// The example apps of test/fixtures/frameworks/ (React 19, Vue 3, Svelte 5) against `id-verify` as a
// tenant gets it: the package packed (`npm pack`), each app copied into an empty temp directory that sees
// nothing of this repository, the tarball installed there beside the app's own toolchain (its
// package.json, exact versions), then the app type-checked strictly with its framework's checker
// (`tsc`, `vue-tsc`, `svelte-check --fail-on-warnings`, with skipLibCheck off, so the package's
// declarations are checked too) and built with Vite. Each app also holds a `@ts-expect-error` on a theme
// the element does not have, so typings that stopped reaching the app fail the check.
//
// The toolchains are installed per app rather than as the repository's devDependencies: vue-tsc and
// svelte-check run on TypeScript's JavaScript API, which TypeScript 7 (the repository's) does not
// have, so each app brings TypeScript 5.9. Installing fetches from the registry (npm's cache makes a
// second run faster), as test/node/scripts/pack-install.test.ts does. The apps run in sequence, about
// 40 s each on a 2-core machine.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/frameworks');
const run = promisify(execFile);

/**
 * The environment of the installs and builds: without npm's own variables (a test started by `npm test`
 * must not pass the workspace on), and without NODE_ENV, which Vite sets to `production` in a process
 * that builds with it (another file sharing the test process may have), and under which `npm install`
 * leaves out the apps' type checkers.
 */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'NODE_ENV'),
  );
}

async function inDir(dir: string, command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: dir,
      env: cleanEnvironment(),
      maxBuffer: 64 * 1024 * 1024,
      timeout: 300_000,
    });
    return stdout + stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${dir}:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`,
    );
  }
}

/** The package's typings are built (`npm run build:npm`) unless a build newer than the generated ones is there. */
async function ensureNpmBuild(): Promise<void> {
  const built = join(ROOT, 'src/dist/npm/frameworks/react-jsx.d.ts');
  const source = join(ROOT, 'src/frameworks/react-jsx.ts');
  if (existsSync(built) && statSync(built).mtimeMs >= statSync(source).mtimeMs) return;
  await inDir(ROOT, 'npm', ['run', 'build:npm']);
}

const APPS = [
  { name: 'react', check: ['node_modules/typescript/bin/tsc', '-p', '.'] },
  { name: 'vue', check: ['node_modules/vue-tsc/bin/vue-tsc.js', '--noEmit', '-p', '.'] },
  {
    name: 'svelte',
    check: [
      'node_modules/svelte-check/bin/svelte-check',
      '--tsconfig',
      './tsconfig.json',
      '--fail-on-warnings',
    ],
  },
] as const;

describe('the React, Vue and Svelte example apps against the packed id-verify', { timeout: 900_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'idv-frameworks-'));
  let tarball = '';

  before(
    async () => {
      await ensureNpmBuild();
      const packed = JSON.parse(
        await inDir(join(ROOT, 'src'), 'npm', [
          'pack',
          '--ignore-scripts',
          '--json',
          '--pack-destination',
          root,
        ]),
      ) as { filename: string; files: { path: string }[] }[];
      tarball = join(root, packed[0]!.filename);
      const files = packed[0]!.files.map((file) => file.path);
      for (const typings of ['react-jsx', 'vue', 'svelte'])
        assert.ok(
          files.includes(`dist/npm/frameworks/${typings}.d.ts`),
          `${typings} typings not in the tarball`,
        );
    },
    { timeout: 300_000 },
  );
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const app of APPS) {
    it(`${app.name}: installs the tarball, type-checks strictly and builds with Vite`, async () => {
      const started = performance.now();
      const dir = join(root, app.name);
      cpSync(join(FIXTURES, app.name), dir, { recursive: true });
      await inDir(dir, 'npm', [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--no-package-lock',
        tarball,
      ]);
      const installed = JSON.parse(readFileSync(join(dir, 'node_modules/id-verify/package.json'), 'utf8'));
      assert.equal(installed.version, '0.1.0');
      const checked = await inDir(dir, process.execPath, [...app.check]);
      if (app.name === 'svelte') assert.match(checked, /svelte-check found 0 errors and 0 warnings/);
      await inDir(dir, process.execPath, ['node_modules/vite/bin/vite.js', 'build']);
      const assets = readdirSync(join(dir, 'dist/assets')).filter((file) => file.endsWith('.js'));
      assert.ok(
        assets.some((file) => readFileSync(join(dir, 'dist/assets', file), 'utf8').includes('id-verify')),
        `no built asset defines <id-verify>: ${assets.join(', ')}`,
      );
      console.log(
        `${app.name}: installed, checked and built in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    });
  }
});
