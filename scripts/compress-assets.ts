// The last step of `npm run build`: writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) twin
// beside every text file the server serves from dist/ (the script-tag bundle, the hosted page, the
// console), so server/http/static-asset.ts can send the smallest encoding a browser accepts without
// compressing anything per request. A twin that would be no smaller than its file is not written (and a
// stale one is removed): the server then sends the file as it is.
//
// Only dist/sdk, dist/hosted and dist/console are served; dist/npm, dist/mock and dist/webhooks are the
// npm package's modules, where twins would only grow the published tarball.
//
//   node scripts/compress-assets.ts [dist-dir]
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { BUILD_COMPRESSION, compressBytes, isCompressible } from '../server/node/node-compression.ts';

const SERVED = ['sdk', 'hosted', 'console'];
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

const dist = process.argv[2] ?? new URL('../dist/', import.meta.url).pathname;
const started = performance.now();
const totals = { identity: 0, br: 0, gzip: 0 };
let count = 0;

const files = (await Promise.all(SERVED.map((dir) => filesUnder(join(dist, dir)))))
  .flat()
  .filter(isCompressible);
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
  `compress-assets: ${count} files under ${relative(process.cwd(), dist) || '.'} in ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s: ${kib(totals.identity)} → ` +
    `gzip ${kib(totals.gzip)}, brotli ${kib(totals.br)}`,
);
