import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MeshFace } from '../../../server/runtime/node/vision/face-geometry.ts';
import {
  boxOverlap,
  faceInImage,
  RESCUE_CONTEXT,
  RESCUE_MAX_SIZE,
  rescueRegion,
} from '../../../server/runtime/node/vision/face-rescue-region.ts';

// The geometry of the second look around a proposed face (no model runs here).
describe('turned-face rescue region', () => {
  it('is a square of twice the proposal’s longer side, centred on it, possibly past the image', () => {
    const region = rescueRegion({ x: 10, y: 20, width: 100, height: 150 });
    assert.equal(region.side, 150 * RESCUE_CONTEXT);
    assert.equal(region.x + region.side / 2, 60, 'centred horizontally');
    assert.equal(region.y + region.side / 2, 95, 'centred vertically');
    assert.ok(region.x < 0, 'extends left of the image; the caller pads with black');
    assert.equal(region.size, 300, 'a small region is analysed at its own size');
  });

  it('resamples a large region down to the cap', () => {
    const region = rescueRegion({ x: 0, y: 0, width: 600, height: 500 });
    assert.equal(region.size, RESCUE_MAX_SIZE);
    assert.equal(region.side, 1200);
  });

  it('moves a face found in the resampled region back into image pixels, depth on the same scale', () => {
    const region = { x: -50, y: 100, side: 1280, size: 640 };
    const inRegion: MeshFace = {
      boxScore: 0.8,
      box: [100, 50, 200, 220],
      mesh: [
        [100, 50, 4],
        [300, 270, -2],
      ],
      rotation: { angle: { yaw: -0.8, pitch: 0.1, roll: 0 } },
    };
    const face = faceInImage(inRegion, region);
    assert.deepEqual(face.box, [150, 200, 400, 440]);
    assert.deepEqual(face.mesh, [
      [150, 200, 8],
      [550, 640, -4],
    ]);
    assert.equal(face.boxScore, 0.8);
    assert.deepEqual(face.rotation, inRegion.rotation, 'angles do not change with the crop');
  });

  it('measures overlap as intersection over union', () => {
    assert.equal(boxOverlap([0, 0, 10, 10], [0, 0, 10, 10]), 1);
    assert.equal(boxOverlap([0, 0, 10, 10], [10, 0, 10, 10]), 0, 'touching boxes share nothing');
    assert.ok(Math.abs(boxOverlap([0, 0, 10, 10], [5, 0, 10, 10]) - 1 / 3) < 1e-9);
    assert.equal(boxOverlap([0, 0, 10, 10], [50, 50, 5, 5]), 0);
  });
});
