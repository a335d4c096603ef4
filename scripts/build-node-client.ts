// `npm run build:client [-- <outDir>]`: compiles @id-verify/node (server/client/src) to JavaScript with
// declarations, in server/client/dist unless told otherwise. Node strips types only outside node_modules,
// so the package a tenant installs must be JavaScript; `npm pack` in server/client runs this first
// (its `prepack`).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = resolve(REPOSITORY, 'server/client/src');
const outDir = resolve(process.argv[2] ?? resolve(REPOSITORY, 'server/client/dist'));

rmSync(outDir, { recursive: true, force: true });
const tsc = spawnSync(
  resolve(REPOSITORY, 'node_modules/.bin/tsc'),
  [
    '--ignoreConfig',
    resolve(SOURCE, 'index.ts'),
    '--outDir',
    outDir,
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
process.exit(tsc.status ?? 1);
