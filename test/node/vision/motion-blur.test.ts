import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GrayscaleImage } from '../../../server/features/evidence/grayscale-image.ts';
import { fft2d } from '../../../server/runtime/node/vision/fft.ts';
import { estimateMotionBlur, withoutMotionBlur } from '../../../server/runtime/node/vision/motion-blur.ts';

/** mulberry32: the same page on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A printed-looking page: pale paper with rows of dark blocks of random widths (glyph-sized strokes and
 * gaps, as lines of text are), and a little noise.
 */
function page(width: number, height: number, seed = 1): GrayscaleImage {
  const random = seeded(seed);
  const pixels = new Uint8Array(width * height).fill(225);
  for (let top = 20; top + 30 < height; top += 48) {
    for (let x = 10; x < width - 30; ) {
      const stroke = 3 + Math.floor(random() * 14);
      const rowHeight = 14 + Math.floor(random() * 16);
      if (random() < 0.7)
        for (let y = top; y < top + rowHeight; y++)
          for (let dx = 0; dx < stroke; dx++) pixels[y * width + x + dx] = 40;
      x += stroke + 2 + Math.floor(random() * 8);
    }
  }
  for (let i = 0; i < pixels.length; i++)
    pixels[i] = Math.max(0, Math.min(255, (pixels[i] as number) + Math.round((random() - 0.5) * 6)));
  return { pixels, width, height };
}

/** `image` smeared along a straight streak of `length` pixels at `degrees` (as a camera shake does). */
function streaked(image: GrayscaleImage, length: number, degrees: number): GrayscaleImage {
  const { width, height, pixels } = image;
  const angle = (degrees * Math.PI) / 180;
  const taps: [number, number][] = [];
  const half = (length - 1) / 2;
  for (let t = -half; t <= half + 1e-9; t += 0.25)
    taps.push([Math.round(t * Math.cos(angle)), Math.round(t * Math.sin(angle))]);
  const out = new Uint8Array(pixels.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (const [dx, dy] of taps) {
        const sx = Math.max(0, Math.min(width - 1, x + dx));
        const sy = Math.max(0, Math.min(height - 1, y + dy));
        sum += pixels[sy * width + sx] as number;
      }
      out[y * width + x] = Math.round(sum / taps.length);
    }
  }
  return { pixels: out, width, height };
}

/** Root-mean-square difference of two images' inner parts (a margin of `margin` pixels left out). */
function rmsDifference(a: GrayscaleImage, b: Uint8Array, channels: number, margin: number): number {
  let sum = 0;
  let count = 0;
  for (let y = margin; y < a.height - margin; y++) {
    for (let x = margin; x < a.width - margin; x++) {
      const difference = (a.pixels[y * a.width + x] as number) - (b[(y * a.width + x) * channels] as number);
      sum += difference * difference;
      count++;
    }
  }
  return Math.sqrt(sum / count);
}

describe('fft2d', () => {
  it('matches the discrete Fourier transform written out, and comes back by its inverse', () => {
    const width = 8;
    const height = 4;
    const random = seeded(3);
    const input = Float64Array.from({ length: width * height }, () => random() - 0.5);
    const re = Float64Array.from(input);
    const im = new Float64Array(width * height);
    fft2d(re, im, width, height, false);
    for (let v = 0; v < height; v++) {
      for (let u = 0; u < width; u++) {
        let sumRe = 0;
        let sumIm = 0;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const phase = -2 * Math.PI * ((u * x) / width + (v * y) / height);
            sumRe += (input[y * width + x] as number) * Math.cos(phase);
            sumIm += (input[y * width + x] as number) * Math.sin(phase);
          }
        }
        assert.ok(Math.abs((re[v * width + u] as number) - sumRe) < 1e-9, `re at ${u},${v}`);
        assert.ok(Math.abs((im[v * width + u] as number) - sumIm) < 1e-9, `im at ${u},${v}`);
      }
    }
    fft2d(re, im, width, height, true);
    for (let i = 0; i < input.length; i++)
      assert.ok(Math.abs((re[i] as number) - (input[i] as number)) < 1e-12);
  });

  it('refuses sizes that are not powers of two', () => {
    assert.throws(() => fft2d(new Float64Array(12), new Float64Array(12), 6, 2, false), RangeError);
  });
});

describe('motion blur: found from the photo alone, and taken out', () => {
  const sharp = page(768, 512);

  it('finds no streak on a sharp page', () => {
    assert.equal(estimateMotionBlur(sharp), null);
  });

  for (const [length, degrees] of [
    [9, 30],
    [11, 0],
    [7, 115],
  ] as const) {
    it(`finds a ${length} px streak at ${degrees}° and its direction`, () => {
      const streak = estimateMotionBlur(streaked(sharp, length, degrees));
      assert.ok(streak, 'a streak is found');
      assert.ok(Math.abs(streak.length - length) <= 2, `length ${streak.length.toFixed(1)} for ${length}`);
      const found = (streak.angle * 180) / Math.PI;
      const apart = Math.min(Math.abs(found - degrees), 180 - Math.abs(found - degrees));
      assert.ok(apart <= 10, `angle ${found.toFixed(0)}° for ${degrees}°`);
    });
  }

  it('brings a streaked page nearer the sharp one, and only in the streak’s own direction', () => {
    const blurred = streaked(sharp, 9, 30);
    const streak = estimateMotionBlur(blurred);
    assert.ok(streak);
    const before = rmsDifference(sharp, blurred.pixels, 1, 16);
    const restored = withoutMotionBlur(blurred, streak);
    assert.equal(restored.width, sharp.width);
    assert.equal(restored.height, sharp.height);
    const after = rmsDifference(sharp, restored.data, restored.channels, 16);
    assert.ok(after < 0.8 * before, `${after.toFixed(1)} against ${before.toFixed(1)} before`);
    // The same streak mirrored (the angle a wrong sign convention would give) does not restore the page.
    const mirrored = withoutMotionBlur(blurred, { ...streak, angle: Math.PI - streak.angle });
    const wrong = rmsDifference(sharp, mirrored.data, mirrored.channels, 16);
    assert.ok(wrong > after * 1.3, `mirrored ${wrong.toFixed(1)} against ${after.toFixed(1)}`);
  });
});
