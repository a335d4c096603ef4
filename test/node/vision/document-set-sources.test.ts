import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectedVerifies, shapeOf } from '../../../bench/accuracy/document-corpus.ts';
import { HELD_OUT_DOCUMENT_SOURCES } from '../../../bench/accuracy/document-holdout-sources.ts';
import { SECOND_HELD_OUT_DOCUMENT_SOURCES } from '../../../bench/accuracy/document-holdout2-sources.ts';
import { THIRD_HELD_OUT_DOCUMENT_SOURCES } from '../../../bench/accuracy/document-holdout3-sources.ts';
import { FOURTH_HELD_OUT_DOCUMENT_SOURCES } from '../../../bench/accuracy/document-holdout4-sources.ts';
import {
  DOCUMENT_SET_SOURCES,
  type DocumentSetSource,
  documentSetFiles,
} from '../../../bench/accuracy/document-set-sources.ts';
import { parseMrz } from '../../../server/domain/mrz.ts';

// The list only: no repository is read.

/**
 * A held-out set reads none of the earlier sets' repositories, names each commit in full, and gives no
 * image a name an earlier set already gives.
 */
function assertApartFrom(
  set: readonly DocumentSetSource[],
  earlier: readonly (readonly DocumentSetSource[])[],
) {
  const earlierRepos = new Set(earlier.flat().map((source) => source.repo));
  for (const source of set) {
    assert.equal(earlierRepos.has(source.repo), false, source.repo);
    assert.match(source.commit, /^[0-9a-f]{40}$/);
  }
  const names = [...earlier, set].flatMap((sources) => documentSetFiles(sources)).map((file) => file.name);
  assert.equal(new Set(names).size, names.length);
}

describe('real document set sources (bench/accuracy/document-set-sources.ts)', () => {
  const files = documentSetFiles();
  const zones = new Set(files.map((file) => file.zone.join('\n')));

  it('lists 88 images of 64 zones from five repositories, each path and name once', () => {
    assert.equal(DOCUMENT_SET_SOURCES.length, 5);
    assert.equal(files.length, 88);
    assert.equal(zones.size, 64);
    const keys = files.map((file) => `${file.repo}:${file.path}`);
    assert.equal(new Set(keys).size, keys.length);
    const names = files.map((file) => file.name);
    assert.equal(new Set(names).size, names.length);
    for (const name of names) assert.match(name, /^[a-z0-9_+-]+$/i);
    for (const source of DOCUMENT_SET_SOURCES) assert.match(source.commit, /^[0-9a-f]{40}$/);
  });

  it('sorts 55 images into zone-verifies and 33 into zone-does-not-verify', () => {
    assert.equal(files.filter((file) => file.folder === 'zone-verifies').length, 55);
    assert.equal(files.filter((file) => file.folder === 'zone-does-not-verify').length, 33);
  });

  it("puts a zone in zone-verifies exactly when the server's parser passes it as printed", () => {
    for (const file of files) {
      assert.equal(expectedVerifies(file.zone), file.verifies, `${file.repo}:${file.path}`);
      if (file.verifies) assert.equal(parseMrz(file.zone.join('\n')).valid, true, file.name);
    }
  });

  it('has zones of the ICAO lengths, OCR-B characters only but for the Spanish card printed with Ñ', () => {
    for (const file of files) {
      const shape = shapeOf(file.zone);
      assert.notEqual(shape, 'other', `${file.name}: ${file.zone.map((line) => line.length).join('/')}`);
      for (const line of file.zone) {
        if (file.name === 'passporteye_0_id-esp') assert.match(line, /^[A-Z0-9<Ñ]+$/);
        else assert.match(line, /^[A-Z0-9<]+$/, file.name);
      }
    }
  });
});

describe('held-out document set sources (bench/accuracy/document-holdout-sources.ts)', () => {
  const files = documentSetFiles(HELD_OUT_DOCUMENT_SOURCES);

  it('lists 26 images from nine repositories, none of the main set', () => {
    assert.equal(HELD_OUT_DOCUMENT_SOURCES.length, 9);
    assert.equal(files.length, 26);
    assertApartFrom(HELD_OUT_DOCUMENT_SOURCES, [DOCUMENT_SET_SOURCES]);
  });

  it("sorts 21 into zone-verifies and 5 into zone-does-not-verify, as the server's parser says", () => {
    assert.equal(files.filter((file) => file.folder === 'zone-verifies').length, 21);
    for (const file of files) {
      assert.equal(expectedVerifies(file.zone), file.verifies, `${file.repo}:${file.path}`);
      if (file.verifies) assert.equal(parseMrz(file.zone.join('\n')).valid, true, file.name);
    }
  });

  it('has zones of the ICAO lengths in OCR-B characters, but the French 1994 card', () => {
    for (const file of files) {
      for (const line of file.zone) assert.match(line, /^[A-Z0-9<]+$/, file.name);
      if (file.name !== 'dev79433_passport_02') assert.notEqual(shapeOf(file.zone), 'other', file.name);
    }
  });
});

describe('second held-out document set sources (bench/accuracy/document-holdout2-sources.ts)', () => {
  const files = documentSetFiles(SECOND_HELD_OUT_DOCUMENT_SOURCES);
  const earlier = [...documentSetFiles(), ...documentSetFiles(HELD_OUT_DOCUMENT_SOURCES)];

  it('lists 30 images from five repositories that neither earlier set reads', () => {
    assert.equal(SECOND_HELD_OUT_DOCUMENT_SOURCES.length, 5);
    assert.equal(files.length, 30);
    assertApartFrom(SECOND_HELD_OUT_DOCUMENT_SOURCES, [DOCUMENT_SET_SOURCES, HELD_OUT_DOCUMENT_SOURCES]);
  });

  it('holds no zone an earlier set holds: other documents, not other photos of the same', () => {
    const earlierZones = new Set(earlier.map((file) => file.zone.join('\n')));
    for (const file of files) assert.equal(earlierZones.has(file.zone.join('\n')), false, file.name);
  });

  it("puts every image in zone-verifies, as the server's parser says", () => {
    for (const file of files) {
      assert.equal(expectedVerifies(file.zone), file.verifies, `${file.repo}:${file.path}`);
      assert.equal(file.folder, 'zone-verifies', file.name);
      assert.equal(parseMrz(file.zone.join('\n')).valid, true, file.name);
    }
  });

  it('has zones of the ICAO lengths in OCR-B characters', () => {
    for (const file of files) {
      for (const line of file.zone) assert.match(line, /^[A-Z0-9<]+$/, file.name);
      assert.notEqual(shapeOf(file.zone), 'other', file.name);
    }
  });
});

/**
 * The checks every later held-out set passes: its repositories and zones apart from the earlier sets',
 * and each image in the folder the server's parser sorts it into.
 */
function describeLaterHeldOutSet(
  title: string,
  sources: readonly DocumentSetSource[],
  earlierSets: readonly (readonly DocumentSetSource[])[],
  counts: { repositories: number; images: number; verifying: number },
) {
  describe(title, () => {
    const files = documentSetFiles(sources);

    it(`lists ${counts.images} images from ${counts.repositories} repositories that no earlier set reads`, () => {
      assert.equal(sources.length, counts.repositories);
      assert.equal(files.length, counts.images);
      assertApartFrom(sources, earlierSets);
    });

    it('holds no zone an earlier set holds', () => {
      const earlierZones = new Set(
        earlierSets.flatMap((set) => documentSetFiles(set)).map((file) => file.zone.join('\n')),
      );
      for (const file of files) assert.equal(earlierZones.has(file.zone.join('\n')), false, file.name);
    });

    it(`sorts ${counts.verifying} into zone-verifies, the rest into zone-does-not-verify, as the server's parser says`, () => {
      assert.equal(files.filter((file) => file.folder === 'zone-verifies').length, counts.verifying);
      for (const file of files) {
        assert.equal(expectedVerifies(file.zone), file.verifies, `${file.repo}:${file.path}`);
        if (file.verifies) assert.equal(parseMrz(file.zone.join('\n')).valid, true, file.name);
        for (const line of file.zone) assert.match(line, /^[A-Z0-9<]+$/, file.name);
        assert.notEqual(shapeOf(file.zone), 'other', file.name);
      }
    });
  });
}

describeLaterHeldOutSet(
  'third held-out document set sources (bench/accuracy/document-holdout3-sources.ts)',
  THIRD_HELD_OUT_DOCUMENT_SOURCES,
  [DOCUMENT_SET_SOURCES, HELD_OUT_DOCUMENT_SOURCES, SECOND_HELD_OUT_DOCUMENT_SOURCES],
  { repositories: 4, images: 8, verifying: 5 },
);

describeLaterHeldOutSet(
  'fourth held-out document set sources (bench/accuracy/document-holdout4-sources.ts)',
  FOURTH_HELD_OUT_DOCUMENT_SOURCES,
  [
    DOCUMENT_SET_SOURCES,
    HELD_OUT_DOCUMENT_SOURCES,
    SECOND_HELD_OUT_DOCUMENT_SOURCES,
    THIRD_HELD_OUT_DOCUMENT_SOURCES,
  ],
  { repositories: 3, images: 3, verifying: 3 },
);
