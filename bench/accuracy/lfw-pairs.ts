// `node bench/accuracy/lfw-pairs.ts <directory> [--half A|B|all] [--json]` (or `npm run bench:accuracy --
// --pairs <directory>`): how the face match decides on a face-verification set of real photos of many
// people: the zone (match, uncertain, mismatch) of every frontal pair as the face-match check decides it,
// simulated sessions, a DET table (FAR and FRR over a range of thresholds), and FAR and FRR at the
// embedding space's published threshold (the same measurement as bench/accuracy/faces.ts). Every image is
// embedded once and kept in memory. With `--json` the last line printed is one JSON object:
// `{"frontal":{"same":{"match":n,"uncertain":n,"mismatch":n,"no_face":n},"different":{…}},
// "thresholds":{…},"engine":{…},…}`.
//
// Three layouts are read:
//
// 1. Labeled Faces in the Wild (http://vis-www.cs.umass.edu/lfw/), as distributed: a `pairs.txt` (or
//    `pairsDevTest.txt`, `pairsDevTrain.txt`) in <directory>, and the images under <directory>/lfw/ (also
//    `lfw-deepfunneled/`, `lfw_funneled/`, or <directory> itself) as `<Name>/<Name>_<NNNN>.jpg`.
//    `pairs.txt` starts with a header line (`10 300`: folds and pairs per class per fold, or a single
//    count), then one pair per line, fields separated by tabs or spaces:
//        Abel_Pacheco	1	4              same person: name, image number, image number
//        Abdel_Madi_Shabneh	1	Dean_Barker	1   different people: name, number, name, number
// 2. A plain layout for any other set: <directory>/same/<pair>/{a,b}.jpg for pairs of one person and
//    <directory>/different/<pair>/{a,b}.jpg for pairs of two people (`.jpeg`, `.png` also accepted).
// 3. By identity: <directory>/people/<identity>/<photos> (face-identity-set.ts). Every pair is formed,
//    and sessions are simulated (one photo as the portrait, up to three others as the frames). The
//    identities are split into halves A and B; `--half` picks one (default B: the face match's zone
//    thresholds were chosen on half A of the set docs/verification.md describes) or `all`.
//
// Nothing is downloaded: bring the set yourself. LFW's images are 250 × 250 with the face centred.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DLIB_RESNET_SPACE } from '../../server/runtime/node/vision/face-models.ts';
import { createNodeVisionEngine } from '../../server/runtime/node/vision/node-vision-engine.ts';
import {
  type FaceIdentity,
  type FaceSetHalf,
  isIdentityLayout,
  readIdentities,
  splitHalf,
} from './face-identity-set.ts';
import {
  faceZoneJson,
  formatFaceZoneReport,
  identityPairs,
  measureFaceZones,
  measurePairListZones,
} from './face-zones.ts';
import {
  type Acquired,
  type FaceImage,
  type FacePair,
  faceAcquirer,
  formatFaceMatchReport,
  measureFaceMatch,
} from './faces.ts';

/** Pair files looked for, in this order. */
const PAIR_FILES = ['pairs.txt', 'pairsDevTest.txt', 'pairsDevTrain.txt'];
/** Image folders of the LFW variants, in this order; the directory itself last. */
const IMAGE_ROOTS = ['lfw', 'lfw-deepfunneled', 'lfw_funneled', '.'];
const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png'];

function lfwImage(root: string, name: string, number: string, line: number): FaceImage {
  if (!/^\d+$/.test(number)) throw new Error(`pairs file line ${line}: "${number}" is not an image number`);
  const file = `${name}_${number.padStart(4, '0')}.jpg`;
  return { path: join(root, name, file), source: { kind: 'selfie' }, person: name, label: `${name}/${file}` };
}

/** One pair line of an LFW pairs file: `[name, n, n]` (one person) or `[name, n, name, n]` (two). */
export type LfwPairFields = [string, string, string] | [string, string, string, string];

/**
 * The pair lines of an LFW pairs file, each with its 1-based line number: the header (`10 300` or one
 * count) and blank lines skipped, any other line that is neither kind of pair refused.
 *
 * @example
 * lfwPairLines('1\nAbel_Pacheco\t1\t4\n') // [{ line: 2, fields: ['Abel_Pacheco', '1', '4'] }]
 */
export function lfwPairLines(text: string): { line: number; fields: LfwPairFields }[] {
  const pairs: { line: number; fields: LfwPairFields }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const fields = raw.trim().split(/\s+/).filter(Boolean);
    if (fields.length === 0) return;
    // The header: one or two plain numbers.
    if (index === 0 && fields.length <= 2 && fields.every((field) => /^\d+$/.test(field))) return;
    if (fields.length !== 3 && fields.length !== 4) {
      throw new Error(
        `pairs file line ${index + 1}: expected 3 fields (same person) or 4 (different people), got ${fields.length}`,
      );
    }
    pairs.push({ line: index + 1, fields: fields as LfwPairFields });
  });
  return pairs;
}

/**
 * The pairs of an LFW `pairs.txt` (text), with image paths under `imageRoot`.
 *
 * @example
 * parseLfwPairs('1\nAbel_Pacheco\t1\t4\n', '/data/lfw') // one same-person pair
 */
export function parseLfwPairs(text: string, imageRoot: string): FacePair[] {
  return lfwPairLines(text).map(({ line, fields }) =>
    fields.length === 3
      ? {
          a: lfwImage(imageRoot, fields[0], fields[1], line),
          b: lfwImage(imageRoot, fields[0], fields[2], line),
          same: true,
          kind: 'lfw',
        }
      : {
          a: lfwImage(imageRoot, fields[0], fields[1], line),
          b: lfwImage(imageRoot, fields[2], fields[3], line),
          same: false,
          kind: 'lfw',
        },
  );
}

function imageIn(folder: string, stem: string): string | undefined {
  return IMAGE_EXTENSIONS.map((extension) => join(folder, `${stem}${extension}`)).find((path) =>
    existsSync(path),
  );
}

function plainLayoutPairs(directory: string): FacePair[] {
  const pairs: FacePair[] = [];
  for (const group of ['same', 'different'] as const) {
    const groupDir = join(directory, group);
    if (!existsSync(groupDir)) continue;
    for (const pair of readdirSync(groupDir).sort()) {
      const pairDir = join(groupDir, pair);
      if (!statSync(pairDir).isDirectory()) continue;
      const a = imageIn(pairDir, 'a');
      const b = imageIn(pairDir, 'b');
      if (!a || !b) throw new Error(`${group}/${pair}: needs a.jpg and b.jpg (or .jpeg, .png)`);
      const person = (side: string) => (group === 'same' ? `${group}/${pair}` : `${group}/${pair}/${side}`);
      pairs.push({
        a: { path: a, source: { kind: 'selfie' }, person: person('a'), label: `${group}/${pair}/a` },
        b: { path: b, source: { kind: 'selfie' }, person: person('b'), label: `${group}/${pair}/b` },
        same: group === 'same',
        kind: group === 'same' ? 'same' : 'different',
      });
    }
  }
  return pairs;
}

/**
 * The pairs of a face-verification set in either layout (see the top of this file). Every image must
 * exist; the first missing one is named in the error.
 *
 * @example
 * const pairs = readFacePairSet('/data/lfw'); // 6000 pairs with LFW's View 2 pairs.txt
 */
export function readFacePairSet(directory: string): FacePair[] {
  const pairFile = PAIR_FILES.map((name) => join(directory, name)).find((path) => existsSync(path));
  let pairs: FacePair[];
  if (pairFile) {
    const root = IMAGE_ROOTS.map((name) => join(directory, name)).find(
      (path) => existsSync(path) && statSync(path).isDirectory(),
    );
    pairs = parseLfwPairs(readFileSync(pairFile, 'utf8'), root ?? directory);
  } else if (existsSync(join(directory, 'same')) || existsSync(join(directory, 'different'))) {
    pairs = plainLayoutPairs(directory);
  } else {
    throw new Error(`${directory}: no ${PAIR_FILES.join(' / ')} and no same/ or different/ folder`);
  }
  for (const pair of pairs) {
    for (const image of [pair.a, pair.b]) {
      if (!existsSync(image.path)) throw new Error(`missing image ${image.path}`);
    }
  }
  return pairs;
}

/**
 * The whole face-pair bench on `directory`: the zone report (with the DET table), then FAR and FRR at the
 * published threshold, and with `json` one JSON object as the last line. Each image is embedded once.
 *
 * @example
 * await runFacePairsBench('/work/data/faces', { json: true, half: 'B' });
 * await runFacePairsBench(['/work/data/faces', '/work/data/lfw-people'], { json: true, half: 'A' });
 */
export async function runFacePairsBench(
  directories: string | readonly string[],
  options: { json: boolean; half: FaceSetHalf; faceCache?: string },
): Promise<void> {
  const engine = createNodeVisionEngine({ threads: 1 });
  try {
    const acquire = faceAcquirer(engine, options.faceCache ? loadFaceCache(options.faceCache) : new Map());
    let zones: Awaited<ReturnType<typeof measureFaceZones>>;
    let pairs: FacePair[];
    const identities = pooledIdentities(directories, options.half);
    if (identities !== null) {
      zones = await measureFaceZones(acquire, identities, options.half);
      pairs = identityPairs(identities);
    } else {
      pairs = readFacePairSet(directories[0] as string);
      zones = await measurePairListZones(acquire, pairs);
    }
    if (options.faceCache) saveFaceCache(options.faceCache, await acquire.readings());
    console.log(formatFaceZoneReport(zones));
    console.log('');
    const atThreshold = await measureFaceMatch(engine, pairs, acquire);
    // Thousands of pairs: the per-pair mistakes are in the zone report above.
    console.log(formatFaceMatchReport({ ...atThreshold, mistakes: [], byKind: [] }));
    if (options.json) console.log(faceZoneJson(zones));
  } finally {
    await engine.close();
  }
}

/**
 * The identities of `half` of each identity-layout set in `directories`, pooled (the halves are split per
 * set, so pooling never moves a person into the other half); null for a single set in a pairs layout.
 *
 * @example
 * pooledIdentities(['/data/faces', '/data/lfw-people'], 'A') // half A of both, one list
 */
export function pooledIdentities(
  directories: string | readonly string[],
  half: FaceSetHalf,
): FaceIdentity[] | null {
  const list = typeof directories === 'string' ? [directories] : directories;
  if (list.length === 0) throw new Error('no face set given');
  const layouts = list.map((directory) => isIdentityLayout(directory));
  if (layouts.every((identity) => identity))
    return list.flatMap((directory) => splitHalf(readIdentities(directory), half));
  if (list.length > 1) throw new Error('only sets in the identity layout (people/<name>/…) can be pooled');
  return null;
}

/**
 * `--face-cache <file>`: each image's reading (face, embedding, quality measures) by image key, kept as
 * JSON between runs so that a bench of thousands of photos is read once. A reading's embedding space is
 * taken as the engine declares it now ({@link DLIB_RESNET_SPACE}: its zones and floors may have changed
 * since, its embeddings not). Readings of another embedder or chip are not told apart: delete the file
 * after changing either.
 */
export function loadFaceCache(file: string): Map<string, Acquired> {
  if (!existsSync(file)) return new Map();
  const stored = Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Acquired>);
  return new Map(
    stored.map(([key, acquired]) => [
      key,
      acquired.space?.name === DLIB_RESNET_SPACE.name ? { ...acquired, space: DLIB_RESNET_SPACE } : acquired,
    ]),
  );
}

function saveFaceCache(file: string, readings: ReadonlyMap<string, Acquired>) {
  writeFileSync(file, JSON.stringify(Object.fromEntries(readings)));
}

/** `--half` as given, or B. */
export function parseHalf(value: string | undefined): FaceSetHalf {
  if (value === undefined) return 'B';
  if (value === 'A' || value === 'B' || value === 'all') return value;
  throw new Error(`--half must be A, B or all, not ${value}`);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { half: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const directory = positionals[0];
  if (!directory) {
    console.error(
      'usage: node bench/accuracy/lfw-pairs.ts <directory with pairs.txt, same/ and different/, or people/> [--half A|B|all] [--json]',
    );
    process.exit(2);
  }
  await runFacePairsBench(resolve(directory), { json: values.json, half: parseHalf(values.half) });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
