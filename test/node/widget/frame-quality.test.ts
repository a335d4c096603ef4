import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFrame } from '../../../src/capture/frame-quality.ts';
import { fakeCameraY4m } from '../../fixtures/fake-camera.ts';

/** The analysis copy of a 1280×720 camera frame (the shared analysis size, long side 640). */
const W = 640;
const H = 360;
const CAMERA = { width: 1280, height: 720 };

/** The fake camera's ID-card scene at analysis size, as RGBA (grey from the Y plane). */
function cardFrame(): Uint8ClampedArray {
  const y4m = fakeCameraY4m(W, H);
  const start = y4m.indexOf('FRAME\n') + 6;
  const rgba = new Uint8ClampedArray(W * H * 4);
  for (let i = 0; i < W * H; i++) {
    const y = y4m[start + i] ?? 0;
    rgba.set([y, y, y, 255], i * 4);
  }
  return rgba;
}

function map(rgba: Uint8ClampedArray, f: (v: number, x: number, y: number) => number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rgba.length);
  for (let i = 0; i < W * H; i++) {
    const v = f(rgba[i * 4] ?? 0, i % W, Math.floor(i / W));
    out.set([v, v, v, 255], i * 4);
  }
  return out;
}

function boxBlur(rgba: Uint8ClampedArray, r: number): Uint8ClampedArray {
  return map(rgba, (_v, x, y) => {
    let s = 0;
    let n = 0;
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r; dx <= r; dx++) {
        const xx = Math.min(W - 1, Math.max(0, x + dx));
        const yy = Math.min(H - 1, Math.max(0, y + dy));
        s += rgba[(yy * W + xx) * 4] ?? 0;
        n++;
      }
    return s / n;
  });
}

describe('frame quality analysis', () => {
  it('passes a sharp, well-lit ID card', () => {
    const q = analyzeFrame(cardFrame(), W, H, CAMERA);
    assert.deepEqual(q.issues, [], JSON.stringify(q));
  });

  it('flags a blurred card as blurry', () => {
    const q = analyzeFrame(boxBlur(cardFrame(), 2), W, H, CAMERA);
    assert.deepEqual(q.issues, ['blurry'], JSON.stringify(q));
  });

  it('flags an underexposed card as too dark', () => {
    const q = analyzeFrame(
      map(cardFrame(), (v) => v * 0.2),
      W,
      H,
      CAMERA,
    );
    assert.ok(q.issues.includes('too_dark'), JSON.stringify(q));
  });

  it('flags a bright reflection as glare', () => {
    const q = analyzeFrame(
      map(cardFrame(), (v, x, y) => ((x - 320) ** 2 + (y - 180) ** 2 < 60 ** 2 ? 255 : v)),
      W,
      H,
      CAMERA,
    );
    assert.ok(q.issues.includes('glare'), JSON.stringify(q));
  });

  it('does not call a white border round the card glare: highlights inside the picture are', () => {
    const q = analyzeFrame(
      map(cardFrame(), (v, x, y) => (x < 60 || x >= W - 60 || y < 30 || y >= H - 30 ? 255 : v)),
      W,
      H,
      CAMERA,
    );
    assert.equal(q.glare, 0);
    assert.deepEqual(q.issues, [], JSON.stringify(q));
  });

  it('asks for a closer camera when the camera itself gives too few pixels', () => {
    const q = analyzeFrame(cardFrame(), W, H, { width: 480, height: 270 });
    assert.deepEqual(q.issues, ['too_small'], JSON.stringify(q));
  });

  it('reports no document for a featureless frame', () => {
    const q = analyzeFrame(
      map(cardFrame(), () => 128),
      W,
      H,
      CAMERA,
    );
    assert.deepEqual(q.issues, ['no_document']);
  });
});
