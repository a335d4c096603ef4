import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GrayscaleImage } from '../../../server/features/evidence/grayscale-image.ts';
import {
  type LineGeometry,
  RECTIFIED_CELL_HEIGHT,
  RECTIFIED_CELL_WIDTH,
  rectifiedLine,
} from '../../../server/runtime/node/vision/mrz-cells.ts';

const PITCH = 20;
const CAPITAL = 24;
const LENGTH = 12;

/**
 * A line of `LENGTH` block "glyphs" (an 8 × 20 bar of ink 30 in each 20 px cell) on paper 225, with a
 * glare band over the right half that brings everything `glare` of the way to white.
 */
function lineUnderGlare(glare: number): GrayscaleImage {
  const width = (LENGTH + 2) * PITCH;
  const height = 60;
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = Math.floor(x / PITCH) - 1;
      const inCell = x % PITCH;
      const ink = k >= 0 && k < LENGTH && inCell >= 6 && inCell < 14 && y >= 20 && y < 40;
      const level = ink ? 30 : 225;
      const washed = x >= width / 2 ? level + glare * (255 - level) : level;
      pixels[y * width + x] = Math.round(washed);
    }
  }
  return { pixels, width, height };
}

const geometry: LineGeometry = { x: [PITCH * 1.5, PITCH, 0], y: [30, 0], h: [CAPITAL, 0] };

/** The darkest and the lightest level of cell `k` of the strip. */
function cellRange(strip: ReturnType<typeof rectifiedLine>, k: number): { ink: number; paper: number } {
  let ink = 255;
  let paper = 0;
  for (let row = 8; row < 8 + RECTIFIED_CELL_HEIGHT; row++) {
    for (let col = 0; col < RECTIFIED_CELL_WIDTH; col++) {
      const level = strip.data[row * strip.width + strip.margin + k * RECTIFIED_CELL_WIDTH + col] as number;
      ink = Math.min(ink, level);
      paper = Math.max(paper, level);
    }
  }
  return { ink, paper };
}

describe('the zone line straightened for the second reader', () => {
  it('gives the characters under a glare band the same dark ink as the others', () => {
    const strip = rectifiedLine(lineUnderGlare(0.7), geometry, LENGTH, new Set());
    const first = cellRange(strip, 0);
    const last = cellRange(strip, LENGTH - 1);
    // Under 70 % glare the ink is ~190 in the photo: Tesseract's binarisation takes it for paper.
    assert.ok(last.ink < 60, `ink under the glare at ${last.ink}`);
    assert.ok(Math.abs(last.ink - first.ink) < 20, `ink ${first.ink} outside, ${last.ink} under the glare`);
    assert.ok(last.paper > 200, `paper under the glare at ${last.paper}`);
  });

  it('paints the filler cells as paper', () => {
    const strip = rectifiedLine(lineUnderGlare(0), geometry, LENGTH, new Set([3]));
    const filler = cellRange(strip, 3);
    assert.equal(filler.ink, filler.paper);
    assert.ok(cellRange(strip, 2).ink < 60);
  });
});
