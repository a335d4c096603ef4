// `npm run build:client [-- <outDir>]`: compiles @id-verify/node (server/client/src) to JavaScript with
// declarations, in server/client/dist unless told otherwise. Node strips types only outside node_modules,
// so the package a tenant installs must be JavaScript; `npm pack` in server/client runs this first
// (its `prepack`).
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = resolve(REPOSITORY, 'server/client/src');
const outDir = resolve(process.argv[2] ?? resolve(REPOSITORY, 'server/client/dist'));

// Compiled beside the target and moved into place at the end: a pack of the package that runs meanwhile
// (the test suites pack it in parallel) sees the old build or the new one, never an empty folder.
const building = `${outDir}.building-${process.pid}`;
rmSync(building, { recursive: true, force: true });
const tsc = spawnSync(
  resolve(REPOSITORY, 'node_modules/.bin/tsc'),
  [
    '--ignoreConfig',
    resolve(SOURCE, 'index.ts'),
    '--outDir',
    building,
    '--rootDir',
    SOURCE,
    '--declaration',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--lib',
    'es2023,dom',
    '--rewriteRelativeImportExtensions',
    '--strict',
    '--skipLibCheck',
    '--types',
    'node',
  ],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) {
  rmSync(building, { recursive: true, force: true });
  process.exit(tsc.status ?? 1);
}
const old = `${outDir}.old-${process.pid}`;
try {
  renameSync(outDir, old);
} catch {
  // No earlier build.
}
renameSync(building, outDir);
rmSync(old, { recursive: true, force: true });
