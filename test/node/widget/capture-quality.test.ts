// The one quality judgement of src/capture/quality/: the widget measures a camera frame at the analysis
// size and judges it with the device's limits; the server measures the JPEG the widget sends (through
// sharp, as in production) and judges it with the server's. A frame the widget would auto-capture must
// never be refused by the server for quality. Frames: the fake camera's ID card scene (1280×720), blurred,
// darkened and with a reflection, in steps across each limit.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import {
  analysisSize,
  captureLimits,
  judgeCapture,
  measureCapture,
} from '../../../src/capture/quality/capture-quality.ts';
import type { LumaImage } from '../../../src/capture/quality/luma-image.ts';
import { assessQuality } from '../../../server/features/evidence/quality.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { fakeCameraY4m } from '../../fixtures/fake-camera.ts';

const W = 1280;
const H = 720;
const CAMERA = { width: W, height: H };

function cameraFrame(): Uint8Array {
  const y4m = fakeCameraY4m(W, H);
  const start = y4m.indexOf('FRAME\n') + 6;
  return new Uint8Array(y4m.subarray(start, start + W * H));
}

/** Separable Gaussian blur of a luma frame (edges clamped). */
function gaussianBlur(frame: Uint8Array, sigma: number): Uint8Array {
  const radius = Math.ceil(sigma * 3);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) =>
    Math.exp(-((i - radius) ** 2) / (2 * sigma ** 2)),
  );
  const total = kernel.reduce((a, b) => a + b, 0);
  const weights = kernel.map((value) => value / total);
  const rows = new Float32Array(W * H);
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++)
        sum +=
          (frame[y * W + Math.min(W - 1, Math.max(0, x + k))] as number) * (weights[k + radius] as number);
      rows[y * W + x] = sum;
    }
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++)
        sum +=
          (rows[Math.min(H - 1, Math.max(0, y + k)) * W + x] as number) * (weights[k + radius] as number);
      out[y * W + x] = Math.round(sum);
    }
  return out;
}

/** What the widget's canvas does with high-quality smoothing at 2×: every 2×2 block averaged. */
function deviceCopy(frame: Uint8Array): LumaImage {
  const size = analysisSize(W, H);
  const pixels = new Uint8Array(size.width * size.height);
  for (let y = 0; y < size.height; y++)
    for (let x = 0; x < size.width; x++) {
      const i = 2 * y * W + 2 * x;
      pixels[y * size.width + x] =
        ((frame[i] as number) +
          (frame[i + 1] as number) +
          (frame[i + W] as number) +
          (frame[i + W + 1] as number) +
          2) >>
        2;
    }
  return { pixels, ...size };
}

interface Variant {
  name: string;
  frame: Uint8Array;
}

describe('one quality judgement for the widget and the server', () => {
  const variants: Variant[] = [];
  const analyzer = sharpImageAnalyzer();
  before(() => {
    const clean = cameraFrame();
    variants.push({ name: 'clean', frame: clean });
    for (const sigma of [0.8, 1.2, 1.6, 2, 2.4, 2.8, 3.5]) {
      variants.push({ name: `blur σ=${sigma}`, frame: gaussianBlur(clean, sigma) });
    }
    for (const gain of [0.7, 0.55, 0.45, 0.4, 0.35, 0.3]) {
      variants.push({ name: `exposure ×${gain}`, frame: clean.map((v) => Math.round(v * gain)) });
    }
    for (const radius of [40, 80, 110, 140, 170]) {
      variants.push({
        name: `reflection r=${radius}`,
        frame: clean.map((v, i) =>
          ((i % W) - 700) ** 2 + (Math.floor(i / W) - 330) ** 2 < radius ** 2 ? 255 : v,
        ),
      });
    }
  });

  it('never has the server refuse for quality a frame the widget accepts', async () => {
    let accepted = 0;
    for (const { name, frame } of variants) {
      const device = judgeCapture(measureCapture(deviceCopy(frame), CAMERA), 'document', 'device');
      // The widget's encoder sends JPEG; quality 85 is in the middle of the qualities it tries.
      const jpeg = await sharp(frame, { raw: { width: W, height: H, channels: 1 } })
        .jpeg({ quality: 85 })
        .toBuffer();
      const server = assessQuality(await analyzer.analyze(jpeg), 'document');
      if (device.ok) {
        accepted++;
        assert.deepEqual(
          server.issues,
          [],
          `${name}: the widget accepts it, the server says ${server.issues}`,
        );
      }
    }
    // The set spans both sides of every limit: some frames accepted, some refused by the widget.
    assert.ok(accepted >= 5 && accepted < variants.length, `${accepted} of ${variants.length} accepted`);
  });

  it('measures a frame within the margin: sharpness within ±30 %, brightness within 3 levels', async () => {
    for (const { name, frame } of variants.filter((v) => v.name.startsWith('blur') || v.name === 'clean')) {
      const device = measureCapture(deviceCopy(frame), CAMERA);
      const jpeg = await sharp(frame, { raw: { width: W, height: H, channels: 1 } })
        .jpeg({ quality: 85 })
        .toBuffer();
      const server = await analyzer.analyze(jpeg);
      const ratio = server.sharpness / device.sharpness;
      assert.ok(
        ratio > 0.7 && ratio < 1.3,
        `${name}: sharpness ${device.sharpness} on the device, ${server.sharpness} on the server`,
      );
      assert.ok(Math.abs(server.brightness - device.brightness) < 3, name);
    }
  });

  it('states the server’s margin: every server limit is more lenient than the device’s', () => {
    for (const purpose of ['document', 'selfie'] as const) {
      const device = captureLimits(purpose, 'device');
      const server = captureLimits(purpose, 'server');
      assert.ok(server.minLongSide < device.minLongSide, purpose);
      assert.ok(server.minBrightness < device.minBrightness, purpose);
      assert.ok(server.maxGlare > device.maxGlare, purpose);
      assert.ok(server.minSharpness < device.minSharpness, purpose);
      assert.ok(server.minContrast <= device.minContrast, purpose);
    }
  });
});
