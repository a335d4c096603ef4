import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FaceIdentity, splitHalf } from '../../../bench/accuracy/face-identity-set.ts';
import { FACE_SET_SOURCES, faceSetFiles } from '../../../bench/accuracy/face-set-sources.ts';

// The list only: no repository is read. The counts are the ones docs/verification.md reports for the set.
describe('face-pair set sources (bench/accuracy/face-set-sources.ts)', () => {
  const files = faceSetFiles();
  const identities: FaceIdentity[] = [...new Set(files.map((file) => file.identity))].map((name) => ({
    name,
    images: files
      .filter((file) => file.identity === name)
      .map((file) => ({
        path: file.file,
        source: { kind: 'selfie' },
        person: name,
        label: `${name}/${file.file}`,
      })),
  }));

  it('lists 276 photos of 63 people from nine repositories, each path once', () => {
    assert.equal(FACE_SET_SOURCES.length, 9);
    assert.equal(files.length, 276);
    assert.equal(identities.length, 63);
    const keys = files.map((file) => `${file.repo}:${file.path}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const source of FACE_SET_SOURCES) assert.match(source.commit, /^[0-9a-f]{40}$/);
  });

  it('numbers a person found in two repositories on from the first', () => {
    const angelina = files.filter((file) => file.identity === 'angelina_jolie');
    assert.deepEqual(
      angelina.map((file) => file.file),
      ['1.jpg', '2.jpg', '3.jpg', '4.jpg', '5.jpg', '6.jpg', '7.jpg', '8.jpg', '9.jpg'],
    );
    assert.equal(angelina.at(-1)?.repo, 'timesler/facenet-pytorch');
  });

  it('splits into the documented halves: A 32 people, 154 photos, 461 same-person pairs; B 31, 122, 317', () => {
    const pairsWithin = (half: FaceIdentity[]) =>
      half.reduce((sum, identity) => sum + (identity.images.length * (identity.images.length - 1)) / 2, 0);
    const a = splitHalf(identities, 'A');
    const b = splitHalf(identities, 'B');
    assert.deepEqual(
      [a.length, a.reduce((sum, identity) => sum + identity.images.length, 0), pairsWithin(a)],
      [32, 154, 461],
    );
    assert.deepEqual(
      [b.length, b.reduce((sum, identity) => sum + identity.images.length, 0), pairsWithin(b)],
      [31, 122, 317],
    );
    // vladmandic/human's eight people sort last, so the earlier 55 keep their halves.
    assert.deepEqual(
      identities
        .map((identity) => identity.name)
        .sort()
        .slice(-8)
        .every((name) => name.startsWith('zz_human_')),
      true,
    );
  });
});
