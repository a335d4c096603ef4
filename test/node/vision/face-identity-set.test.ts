import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isIdentityLayout, readIdentities, splitHalf } from '../../../bench/accuracy/face-identity-set.ts';
import { detTable, faceZoneJson, identityPairs, scoreFaceZones } from '../../../bench/accuracy/face-zones.ts';
import type { Acquired } from '../../../bench/accuracy/faces.ts';
import { pooledIdentities } from '../../../bench/accuracy/lfw-pairs.ts';
import { MODELS, ZONED_DLIB_SPACE } from '../domain/vision-fixtures.ts';

// Reading and scoring only: the images are empty files and the faces are built by hand, no model runs.
describe('face set by identity (bench/accuracy/face-identity-set.ts, face-zones.ts)', () => {
  let root: string;
  const touch = (...parts: string[]) => {
    const path = join(root, ...parts);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '');
  };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'idv-faces-'));
    for (const file of ['ann/1.jpg', 'ann/2.jpg', 'ann/10.png', 'bob/1.jpg', 'cy/1.jpeg', 'cy/notes.txt'])
      touch('set', 'people', file);
    mkdirSync(join(root, 'set', 'people', 'empty'), { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('pools the same half of several sets, each split on its own', () => {
    touch('other', 'people', 'dee', '1.jpg');
    touch('other', 'people', 'eve', '1.jpg');
    const names = (half: 'A' | 'B') =>
      pooledIdentities([join(root, 'set'), join(root, 'other')], half)?.map((identity) => identity.name);
    assert.deepEqual(names('A'), ['ann', 'cy', 'dee']);
    assert.deepEqual(names('B'), ['bob', 'eve']);
    touch('listed', 'pairs.txt');
    assert.equal(pooledIdentities(join(root, 'listed'), 'all'), null);
    assert.throws(() => pooledIdentities([join(root, 'set'), join(root, 'listed')], 'A'), /identity layout/);
  });

  it('reads people/<identity>/ folders: images only, numeric order, empty folders left out', () => {
    const identities = readIdentities(join(root, 'set'));
    assert.deepEqual(
      identities.map((identity) => [identity.name, identity.images.map((image) => image.label)]),
      [
        ['ann', ['ann/1.jpg', 'ann/2.jpg', 'ann/10.png']],
        ['bob', ['bob/1.jpg']],
        ['cy', ['cy/1.jpeg']],
      ],
    );
    assert.equal(isIdentityLayout(join(root, 'set')), true);
  });

  it('splits the identities into two disjoint halves by sorted name', () => {
    const identities = readIdentities(join(root, 'set'));
    const a = splitHalf(identities, 'A').map((identity) => identity.name);
    const b = splitHalf(identities, 'B').map((identity) => identity.name);
    assert.deepEqual(a, ['ann', 'cy']);
    assert.deepEqual(b, ['bob']);
    assert.equal(splitHalf(identities, 'all').length, 3);
  });

  it('forms every pair: same person within a folder, different people across', () => {
    const pairs = identityPairs(readIdentities(join(root, 'set')));
    assert.equal(pairs.length, 10); // 5 images
    assert.equal(pairs.filter((pair) => pair.same).length, 3); // ann's three photos
  });

  it('decides every pair and session with the face-match check, and counts faces it cannot use', () => {
    const identities = readIdentities(join(root, 'set'));
    // ann within 0.05 of herself, bob 0.58–0.6 from ann (uncertain), cy far (mismatch), and
    // ann/10.png turned 30°: its pairs are counted apart.
    const embeddings: Record<string, number[]> = {
      'ann/1.jpg': [0, 0],
      'ann/2.jpg': [-0.02, 0],
      'ann/10.png': [0, 0.05],
      'bob/1.jpg': [0.58, 0],
      'cy/1.jpeg': [2, 2],
    };
    const acquired = new Map<string, Acquired>(
      Object.entries(embeddings).map(([label, embedding]) => [
        label,
        {
          ok: true,
          sample: {
            faces: 1,
            face_width: 200,
            pose: { yaw: label === 'ann/10.png' ? 30 : 0, pitch: 0 },
            embedding,
          },
          space: ZONED_DLIB_SPACE,
          engine: MODELS,
        },
      ]),
    );
    const report = scoreFaceZones(identities, acquired, 'all');
    assert.deepEqual(report.frontal.same, { match: 1, uncertain: 0, mismatch: 0, no_face: 0 });
    assert.deepEqual(report.frontal.different, { match: 0, uncertain: 2, mismatch: 3, no_face: 0 });
    // A turned probe never matches on its own (the check's rule): ann against her turned photo is uncertain.
    assert.deepEqual(report.turned.same, { match: 0, uncertain: 2, mismatch: 0, no_face: 0 });
    assert.deepEqual(report.turned.different, { match: 0, uncertain: 1, mismatch: 1, no_face: 0 });
    // No one has three frontal photos: no genuine session; ann's two are impostor frames for the others.
    assert.deepEqual(report.sessions.same, { match: 0, uncertain: 0, mismatch: 0, no_face: 0 });
    assert.equal(report.sessions.different.uncertain, 1); // bob's portrait against ann's frames
    assert.equal(report.sessions.different.mismatch, 1); // cy's

    const json = JSON.parse(faceZoneJson(report));
    assert.deepEqual(json.frontal, report.frontal);
    assert.deepEqual(json.thresholds, {
      match: 0.55,
      mismatch: 0.62,
      metric: 'euclidean',
      space: 'dlib-resnet-v1-chip',
    });
    assert.deepEqual(json.engine, MODELS);

    acquired.set('cy/1.jpeg', {
      ok: false,
      reason: 'no_face',
      sample: { faces: 0, face_width: 0 },
      space: ZONED_DLIB_SPACE,
      engine: MODELS,
    });
    const withoutCy = scoreFaceZones(identities, acquired, 'all');
    assert.equal(withoutCy.frontal.different.no_face, 4);
    assert.deepEqual(withoutCy.unusable, { no_face: 1 });
  });

  it('counts the far pairs and sessions the quality floors held as uncertain', () => {
    const identities = readIdentities(join(root, 'set'));
    const space = { ...ZONED_DLIB_SPACE, qualityFloors: { sharpness: 0.05, eyes: 0.5 } };
    const embeddings: Record<string, number[]> = {
      'ann/1.jpg': [0, 0],
      'ann/2.jpg': [-0.02, 0],
      'ann/10.png': [0, 0.05],
      'bob/1.jpg': [0.58, 0],
      'cy/1.jpeg': [2, 2],
    };
    const acquired = new Map<string, Acquired>(
      Object.entries(embeddings).map(([label, embedding]) => [
        label,
        {
          ok: true,
          sample: {
            faces: 1,
            face_width: 200,
            pose: { yaw: label === 'ann/10.png' ? 30 : 0, pitch: 0 },
            embedding,
            // cy's photo is blurred: every far pair with it goes to a person instead of being rejected.
            quality: { sharpness: label === 'cy/1.jpeg' ? 0.01 : 0.2, eyes: 0.8 },
          },
          space,
          engine: MODELS,
        },
      ]),
    );
    const report = scoreFaceZones(identities, acquired, 'all');
    assert.deepEqual(report.frontal.different, { match: 0, uncertain: 5, mismatch: 0, no_face: 0 });
    assert.deepEqual(report.qualityHeld.frontal, { same: 0, different: 3 });
    assert.deepEqual(report.qualityHeld.sessions, { same: 0, different: 1 }); // cy's portrait, ann's frames
    assert.deepEqual(report.lowQualityFaces, { blurred: 1, eyes_covered: 0, measured: 4 });
    assert.deepEqual(JSON.parse(faceZoneJson(report)).quality_held, report.qualityHeld);
  });

  it('tabulates FAR and FRR over thresholds', () => {
    const rows = detTable([0.3, 0.5, 0.7], [0.45, 0.9], 0.4, 0.6, 0.1);
    assert.deepEqual(rows, [
      { threshold: 0.4, far: 0, frr: 2 / 3 },
      { threshold: 0.5, far: 0.5, frr: 1 / 3 },
      { threshold: 0.6, far: 0.5, frr: 1 / 3 },
    ]);
  });
});
