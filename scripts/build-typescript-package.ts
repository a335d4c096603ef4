// What the package builds (scripts/build-server.ts, build-mock.ts) share: compiling TypeScript sources to
// the JavaScript a tenant's `node_modules` can run. Node strips types only outside node_modules, so an
// installed package must be JavaScript.
import { spawnSync } from 'node:child_process';
import { existsSync, globSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

/**
 * The compiler options of tsconfig.json that matter for emit, as flags: `--ignoreConfig` leaves the
 * repository's tsconfig.json (noEmit, every folder) out, and each package compiles only its own files.
 */
const COMPILER_FLAGS = [
  '--declaration',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--target',
  'es2023',
  '--lib',
  'es2023,dom,dom.iterable',
  '--types',
  'node',
  '--rewriteRelativeImportExtensions',
  '--verbatimModuleSyntax',
  '--erasableSyntaxOnly',
  '--resolveJsonModule',
  '--strict',
  '--noUncheckedIndexedAccess',
  '--noImplicitOverride',
  '--useDefineForClassFields',
  'false',
  '--skipLibCheck',
];

/**
 * `new URL('./x.ts', import.meta.url)`: a file the code hands to a worker thread or a child process by
 * path. The compiler rewrites import specifiers to `.js` but not these strings, so the compiled copy would
 * point at a `.ts` file the package does not ship.
 */
const TS_FILE_URL = /new URL\((['"`])(\.{1,2}\/[^'"`]+?)\.ts\1(\s*,\s*import\.meta\.url\s*\))/g;

/**
 * Compiles `entries` (paths relative to the repository, globs allowed) and everything they import into
 * `outDir`, with declarations, keeping the repository's folder layout under it (rootDir is the
 * repository: `server/app.ts` becomes `<outDir>/server/app.js`). Then points every
 * `new URL('./x.ts', import.meta.url)` at the compiled `x.js`, and fails when one is missing.
 */
export function compilePackage(options: {
  entries: string[];
  /** Paths (relative to the repository) an entry glob matches but the package leaves out. */
  exclude?: RegExp;
  outDir: string;
  label: string;
}): void {
  const outDir = resolve(REPOSITORY, options.outDir);
  const files = options.entries
    .flatMap((entry) => globSync(entry, { cwd: REPOSITORY }))
    .filter((file) => !/(^|\/)(dist|node_modules)\//.test(file) && !options.exclude?.test(file));
  if (files.length === 0) throw new Error(`${options.label}: no source files match ${options.entries}`);
  rmSync(outDir, { recursive: true, force: true });
  const started = performance.now();
  const tsc = spawnSync(
    resolve(REPOSITORY, 'node_modules/.bin/tsc'),
    ['--ignoreConfig', ...files, '--outDir', outDir, '--rootDir', REPOSITORY, ...COMPILER_FLAGS],
    { cwd: REPOSITORY, stdio: 'inherit' },
  );
  if (tsc.status !== 0) throw new Error(`${options.label}: tsc failed (exit ${tsc.status})`);
  const emitted = globSync('**/*.js', { cwd: outDir }).map((file) => resolve(outDir, file));
  let rewritten = 0;
  for (const file of emitted) {
    const code = readFileSync(file, 'utf8');
    const fixed = code.replace(TS_FILE_URL, (_all, quote: string, path: string, rest: string) => {
      const target = resolve(dirname(file), `${path}.js`);
      if (!existsSync(target)) {
        throw new Error(`${relative(REPOSITORY, file)} loads ${path}.ts, which was not compiled`);
      }
      rewritten += 1;
      return `new URL(${quote}${path}.js${quote}${rest}`;
    });
    if (fixed !== code) writeFileSync(file, fixed);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${options.label}: ${emitted.length} modules in ${relative(REPOSITORY, outDir)} (${seconds} s; ${rewritten} worker paths pointed at .js)`,
  );
}

/** Runs a command in the repository (a root package.json script: `npm run …`), failing on its exit code. */
export function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: REPOSITORY, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}
