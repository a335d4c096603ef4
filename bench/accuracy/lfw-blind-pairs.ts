// `node bench/accuracy/lfw-blind-pairs.ts --lfw <dir> --out <dir> [--people-out <dir>]`: the standard Labeled Faces in the Wild
// verification pairs (`pairs.txt`, 10 folds of 300 same-person and 300 different-person pairs) without
// every pair that shows a person of this repository's own face set (face-set-sources.ts), whose half A
// chose the face match's zones and quality floors. What is left is a set no threshold was chosen on: a
// blind figure, read by `npm run bench:accuracy -- --pairs <out>` like any LFW directory.
//
// `<dir>` holds `pairs.txt` and the images as LFW distributes them (`lfw/<Name>/<Name>_<NNNN>.jpg`);
// `<out>` gets the kept pairs as its own `pairs.txt` (header: the count of pairs kept) and a symbolic link
// `lfw` to the images. `--people-out` also writes LFW's people with at least four photos, the same people
// left out, in the identity layout (`people/<Name>/`, links to their first four photos): the bench then
// forms every pair of them and simulates sessions (face-identity-set.ts; read it with `--half all`).
// Nothing is downloaded and nothing is copied: LFW's photos are news photographs
// whose rights stay with their photographers, so neither they nor the pair list are in this repository.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FACE_SET_SOURCES, type FaceSetSource } from './face-set-sources.ts';
import { lfwPairLines } from './lfw-pairs.ts';

/**
 * The people of the repository's face set as LFW names them (`arnold_schwarzenegger` is LFW's
 * `Arnold_Schwarzenegger`), compared without case.
 */
export function faceSetPeople(sources: readonly FaceSetSource[] = FACE_SET_SOURCES): ReadonlySet<string> {
  return new Set(sources.flatMap((source) => Object.keys(source.people)).map((name) => name.toLowerCase()));
}

/**
 * The lines of an LFW pairs file that show none of `excluded` (lower-case names), and how many were left
 * out (read by lfwPairLines). The header line (`10 300`) is dropped; the caller writes its own.
 *
 * @example
 * blindPairs('10\t300\nArnold_Schwarzenegger\t1\t2\nAbel_Pacheco\t1\t4\n', new Set(['arnold_schwarzenegger']))
 * // { kept: ['Abel_Pacheco\t1\t4'], same: 1, different: 0, dropped: 1 }
 */
export function blindPairs(
  text: string,
  excluded: ReadonlySet<string>,
): { kept: string[]; same: number; different: number; dropped: number } {
  const kept: string[] = [];
  let same = 0;
  let different = 0;
  let dropped = 0;
  for (const { fields } of lfwPairLines(text)) {
    const people = fields.length === 3 ? [fields[0]] : [fields[0], fields[2]];
    if (people.some((name) => excluded.has(name.toLowerCase()))) {
      dropped++;
      continue;
    }
    kept.push(fields.join('\t'));
    if (fields.length === 3) same++;
    else different++;
  }
  return { kept, same, different, dropped };
}

/** Each person's photos linked into the identity layout: enough for a session (a portrait, three frames). */
export const PHOTOS_PER_PERSON = 4;

/**
 * LFW's people (folder names under `images`) with at least {@link PHOTOS_PER_PERSON} photos and not in
 * `excluded` (lower-case names), each with their first {@link PHOTOS_PER_PERSON} photos by file name.
 *
 * @example
 * blindPeople('/data/lfw/lfw', faceSetPeople()) // [{ name: 'Abdullah_Gul', photos: ['Abdullah_Gul_0001.jpg', …] }, …]
 */
export function blindPeople(
  images: string,
  excluded: ReadonlySet<string>,
): { name: string; photos: string[] }[] {
  return readdirSync(images, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !excluded.has(entry.name.toLowerCase()))
    .map((entry) => ({
      name: entry.name,
      photos: readdirSync(join(images, entry.name))
        .filter((file) => file.toLowerCase().endsWith('.jpg'))
        .sort()
        .slice(0, PHOTOS_PER_PERSON),
    }))
    .filter((person) => person.photos.length === PHOTOS_PER_PERSON)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { lfw: { type: 'string' }, out: { type: 'string' }, 'people-out': { type: 'string' } },
  });
  if (!values.lfw || !values.out) {
    console.error(
      'usage: node bench/accuracy/lfw-blind-pairs.ts --lfw <dir with pairs.txt and lfw/> --out <dir>',
    );
    process.exit(2);
  }
  const source = resolve(values.lfw);
  const pairsFile = join(source, 'pairs.txt');
  const images = join(source, 'lfw');
  if (!existsSync(pairsFile) || !existsSync(images)) {
    console.error(`${source} needs pairs.txt and lfw/ (LFW as distributed)`);
    process.exit(2);
  }
  const { kept, same, different, dropped } = blindPairs(readFileSync(pairsFile, 'utf8'), faceSetPeople());
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'pairs.txt'), `${kept.length}\n${kept.join('\n')}\n`);
  if (!existsSync(join(out, 'lfw'))) symlinkSync(images, join(out, 'lfw'));
  console.log(
    `${kept.length} pairs kept (${same} same person, ${different} different people), ${dropped} left out as showing a person of the repository's face set; written to ${out}`,
  );
  if (values['people-out']) {
    const people = blindPeople(images, faceSetPeople());
    const root = join(resolve(values['people-out']), 'people');
    for (const { name, photos } of people) {
      mkdirSync(join(root, name), { recursive: true });
      for (const photo of photos)
        if (!existsSync(join(root, name, photo)))
          symlinkSync(join(images, name, photo), join(root, name, photo));
    }
    console.log(`${people.length} people, ${PHOTOS_PER_PERSON} photos each, linked under ${root}`);
  }
}
