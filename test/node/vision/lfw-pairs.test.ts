import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseLfwPairs, readFacePairSet } from '../../../bench/accuracy/lfw-pairs.ts';

// Parsing only: the images are empty files, no model runs.
describe('face-verification pair sets (bench/accuracy/lfw-pairs.ts)', () => {
  let root: string;
  const touch = (...parts: string[]) => {
    const path = join(root, ...parts);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '');
  };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'idv-lfw-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('reads an LFW pairs.txt: header skipped, 3 fields same person, 4 fields different people', () => {
    const lfw = join(root, 'lfw-set');
    for (const file of [
      'Abel_Pacheco/Abel_Pacheco_0001.jpg',
      'Abel_Pacheco/Abel_Pacheco_0004.jpg',
      'Dean_Barker/Dean_Barker_0001.jpg',
    ]) {
      touch('lfw-set', 'lfw', file);
    }
    writeFileSync(join(lfw, 'pairs.txt'), '1\t1\nAbel_Pacheco\t1\t4\nAbel_Pacheco 1 Dean_Barker 1\n\n');

    const pairs = readFacePairSet(lfw);

    assert.equal(pairs.length, 2);
    assert.equal(pairs[0]!.same, true);
    assert.equal(pairs[0]!.a.path, join(lfw, 'lfw', 'Abel_Pacheco', 'Abel_Pacheco_0001.jpg'));
    assert.equal(pairs[0]!.b.path, join(lfw, 'lfw', 'Abel_Pacheco', 'Abel_Pacheco_0004.jpg'));
    assert.equal(pairs[0]!.a.person, pairs[0]!.b.person);
    assert.equal(pairs[1]!.same, false);
    assert.equal(pairs[1]!.b.person, 'Dean_Barker');
    assert.notEqual(pairs[1]!.a.person, pairs[1]!.b.person);
    assert.deepEqual(pairs[1]!.a.source, { kind: 'selfie' });
  });

  it('takes the images from the directory itself when there is no lfw/ folder, and a one-number header', () => {
    const pairs = parseLfwPairs('300\nJane_Doe\t2\t11\n', '/data');
    assert.equal(pairs.length, 1);
    assert.equal(pairs[0]!.a.path, join('/data', 'Jane_Doe', 'Jane_Doe_0002.jpg'));
    assert.equal(pairs[0]!.b.path, join('/data', 'Jane_Doe', 'Jane_Doe_0011.jpg'));
  });

  it('refuses a line that is neither a same nor a different pair, naming the line', () => {
    assert.throws(() => parseLfwPairs('1\nJane_Doe\t2\n', '/data'), /line 2: expected 3 fields/);
    assert.throws(() => parseLfwPairs('1\nJane_Doe\tx\t2\n', '/data'), /line 2: "x" is not an image number/);
  });

  it('reads the same/ and different/ layout, any of .jpg, .jpeg, .png', () => {
    touch('plain', 'same', 'p1', 'a.jpg');
    touch('plain', 'same', 'p1', 'b.png');
    touch('plain', 'different', 'p2', 'a.jpeg');
    touch('plain', 'different', 'p2', 'b.jpg');

    const pairs = readFacePairSet(join(root, 'plain'));

    assert.deepEqual(
      pairs.map((pair) => [pair.same, pair.a.label, pair.b.label]),
      [
        [true, 'same/p1/a', 'same/p1/b'],
        [false, 'different/p2/a', 'different/p2/b'],
      ],
    );
    assert.equal(pairs[0]!.a.person, pairs[0]!.b.person);
    assert.notEqual(pairs[1]!.a.person, pairs[1]!.b.person);
    assert.equal(pairs[0]!.b.path, join(root, 'plain', 'same', 'p1', 'b.png'));
  });

  it('names a missing image, a pair folder without both images, and a directory of neither layout', () => {
    writeFileSync(join(root, 'lfw-set', 'pairs.txt'), '1\nAbel_Pacheco\t1\t2\n');
    assert.throws(() => readFacePairSet(join(root, 'lfw-set')), /missing image .*Abel_Pacheco_0002\.jpg/);
    touch('broken', 'same', 'p1', 'a.jpg');
    assert.throws(() => readFacePairSet(join(root, 'broken')), /same\/p1: needs a\.jpg and b\.jpg/);
    mkdirSync(join(root, 'empty'));
    assert.throws(
      () => readFacePairSet(join(root, 'empty')),
      /no pairs\.txt .* and no same\/ or different\/ folder/,
    );
  });
});
