// A face set stored by identity, `<directory>/people/<identity>/<any name>.{jpg,jpeg,png}` (or the identity
// folders directly in <directory>): every photo in a folder shows that one person, and photos of different
// folders show different people. The bench forms every pair itself and splits the identities into two
// disjoint halves, A to choose thresholds on and B to report on, so no figure is tuned on the photos it
// is reported on.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FaceImage } from './faces.ts';

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png']);

export interface FaceIdentity {
  name: string;
  images: FaceImage[];
}

/** Which identities to use: one half, or all. */
export type FaceSetHalf = 'A' | 'B' | 'all';

/** The folder holding the identity folders: `people/` when there is one, else the directory itself. */
function identityRoot(directory: string): string {
  const people = join(directory, 'people');
  return existsSync(people) && statSync(people).isDirectory() ? people : directory;
}

/**
 * Whether `directory` is in the identity-folder layout: `people/` exists, or it has no `pairs.txt`,
 * `same/` or `different/` and at least two sub-folders holding images.
 */
export function isIdentityLayout(directory: string): boolean {
  if (existsSync(join(directory, 'people'))) return true;
  if (['pairs.txt', 'same', 'different'].some((name) => existsSync(join(directory, name)))) return false;
  return readIdentities(directory).length >= 2;
}

/**
 * Every identity folder with at least one image, sorted by name; images sorted by file name.
 *
 * @example
 * readIdentities('/work/data/faces') // [{ name: 'alex_lacamoire', images: [3 images] }, …]
 */
export function readIdentities(directory: string): FaceIdentity[] {
  const root = identityRoot(directory);
  const identities: FaceIdentity[] = [];
  for (const name of readdirSync(root).sort()) {
    const folder = join(root, name);
    if (!statSync(folder).isDirectory()) continue;
    const images = readdirSync(folder)
      .filter((file) => IMAGE_EXTENSIONS.has(extname(file).toLowerCase()))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .map(
        (file): FaceImage => ({
          path: join(folder, file),
          source: { kind: 'selfie' },
          person: name,
          label: `${name}/${file}`,
        }),
      );
    if (images.length > 0) identities.push({ name, images });
  }
  return identities;
}

/**
 * One half of the identities: sorted by name, A takes the 1st, 3rd, 5th…, B the 2nd, 4th…; the halves
 * share no person, and a set gathered from several sources spreads each source over both.
 *
 * @example
 * splitHalf(identities, 'A').length // ⌈n / 2⌉
 */
export function splitHalf(identities: readonly FaceIdentity[], half: FaceSetHalf): FaceIdentity[] {
  if (half === 'all') return [...identities];
  const sorted = [...identities].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted.filter((_, index) => index % 2 === (half === 'A' ? 0 : 1));
}
