import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { compareEmbeddings } from '../../../server/domain/face-embedding.ts';
import type { FaceAnalysis, VisionEngine } from '../../../server/features/vision/vision-engine.ts';
import { createNodeVisionEngine } from '../../../server/runtime/node/vision/node-vision-engine.ts';

const FIXTURES = new URL('../../fixtures/vision/', import.meta.url);
const fixture = (path: string) => new Uint8Array(readFileSync(new URL(path, FIXTURES)));

function onlyFace(analysis: FaceAnalysis, label: string) {
  assert.equal(analysis.faces.length, 1, `${label}: expected one face, found ${analysis.faces.length}`);
  return analysis.faces[0] as NonNullable<(typeof analysis.faces)[0]>;
}

// Faces at rest in three-quarter view: BlazeFace alone finds none of the camera man's webcam frames (his
// head turned about 45°); the engine's second detector proposes where to look again.
describe('Node vision engine: faces turned about 45°', () => {
  let vision: VisionEngine;
  before(() => {
    vision = createNodeVisionEngine({ threads: 1 });
  });
  after(() => vision.close());

  it('finds the camera man turned to his left and to his right, with a mesh pose and an embedding', async () => {
    const left = onlyFace(
      await vision.analyzeFaces(fixture('selfies/genuine-camera/neutral.jpg'), { embeddings: true }),
      'turned left',
    );
    const right = onlyFace(
      await vision.analyzeFaces(fixture('selfies/genuine-camera/turn_right.jpg'), { embeddings: true }),
      'mirrored, turned right',
    );
    assert.ok(left.yaw < -30, `his own left: yaw ${left.yaw}`);
    assert.ok(right.yaw > 30, `his own right: yaw ${right.yaw}`);
    // The box is the face, not the frame: a 640 × 480 webcam frame with his head about 230 px wide.
    for (const face of [left, right]) {
      assert.ok(face.box.width > 120 && face.box.width < 330, `face width ${face.box.width}`);
      assert.ok(face.box.x > 0 && face.box.x + face.box.width < 640, 'box inside the frame');
      assert.equal(face.embedding?.length, 128);
    }
    const portrait = onlyFace(
      await vision.analyzeFaces(fixture('portraits/camera.jpg'), { embeddings: true }),
      'portrait',
    );
    const astronaut = onlyFace(
      await vision.analyzeFaces(fixture('portraits/astronaut.jpg'), { embeddings: true }),
      'astronaut',
    );
    const space = { name: 'dlib-resnet-v1', metric: 'euclidean', threshold: 0.6 } as const;
    const same = compareEmbeddings(portrait.embedding ?? [], left.embedding ?? [], space);
    const other = compareEmbeddings(astronaut.embedding ?? [], left.embedding ?? [], space);
    assert.ok(same && other, 'both comparable');
    assert.ok(same.score < other.score, `his own photo ${same.score} vs hers ${other.score}`);
  });

  it('still finds no face in any frame of the cat or the empty desk', async () => {
    for (const scene of ['attack-no_face-cat', 'attack-no_face-desk']) {
      for (const action of ['neutral', 'turn_left', 'turn_right', 'look_up', 'smile', 'blink']) {
        const analysis = await vision.analyzeFaces(fixture(`selfies/${scene}/${action}.jpg`));
        assert.equal(analysis.faces.length, 0, `${scene}/${action}`);
      }
    }
  });

  it('adds nothing to a frontal face BlazeFace found: one face, not two', async () => {
    const analysis = await vision.analyzeFaces(fixture('selfies/genuine-astronaut/neutral.jpg'));
    onlyFace(analysis, 'astronaut frontal');
    assert.ok(analysis.engine.models.some((model) => model.startsWith('tiny-face-detector@')));
  });
});
