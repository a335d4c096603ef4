// The last step of `npm run build`: writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) twin
// beside every text file the server serves from a build (the script-tag bundle in src/dist/sdk, the
// hosted page and the console in server/dist/web), so server/http/static-asset.ts can send the smallest
// encoding a browser accepts without compressing anything per request. A twin that would be no smaller
// than its file is not written (and a stale one is removed): the server then sends the file as it is.
//
// Only those folders are served; src/dist/npm and mock/dist are packages' modules,
// where twins would only grow the published tarballs. The `id-verify` package leaves the sdk's twins out
// of its tarball too (its `files`): an installed server compresses that bundle once in memory.
//
//   node scripts/compress-assets.ts [dir]   (a dir given: its sdk/, hosted/ and console/ folders)
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { BUILD_COMPRESSION, compressBytes, isCompressible } from '../server/runtime/node/node-compression.ts';

const REPOSITORY = new URL('../', import.meta.url).pathname;
const SERVED = process.argv[2]
  ? ['sdk', 'hosted', 'console'].map((dir) => join(process.argv[2] as string, dir))
  : ['src/dist/sdk', 'server/dist/web/hosted', 'server/dist/web/console'].map((dir) => join(REPOSITORY, dir));
const TWINS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;

async function filesUnder(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return []; // a directory this build did not produce
  }
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
    ),
  );
  return nested.flat();
}

const started = performance.now();
const totals = { identity: 0, br: 0, gzip: 0 };
let count = 0;

const files = (await Promise.all(SERVED.map((dir) => filesUnder(dir)))).flat().filter(isCompressible);
// One file at a time, each compression on libuv's pool: brotli 11 of the two codings runs in parallel.
for (const file of files) {
  const bytes = new Uint8Array(await readFile(file));
  totals.identity += bytes.byteLength;
  count += 1;
  await Promise.all(
    TWINS.map(async ([coding, suffix]) => {
      const compressed = await compressBytes(coding, bytes, BUILD_COMPRESSION);
      if (compressed.byteLength < bytes.byteLength) {
        await writeFile(file + suffix, compressed);
        totals[coding] += compressed.byteLength;
      } else {
        await rm(file + suffix, { force: true });
        totals[coding] += bytes.byteLength;
      }
    }),
  );
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
  `compress-assets: ${count} files under ${SERVED.map((dir) => relative(process.cwd(), dir) || '.').join(', ')} in ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s: ${kib(totals.identity)} → ` +
    `gzip ${kib(totals.gzip)}, brotli ${kib(totals.br)}`,
);
