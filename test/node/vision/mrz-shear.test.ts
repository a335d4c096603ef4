import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GrayscaleImage } from '../../../server/features/evidence/grayscale-image.ts';
import { type LineGeometry, withShear, zoneLean } from '../../../server/runtime/node/vision/mrz-cells.ts';

// A line of 20 serifed `I`s (OCR-B's: a stem with a bar at the top and the bottom) 11 px tall at a 12 px
// pitch, as a phone shows a small zone: the stems lean `LEAN` (a page seen at an angle), and the print is
// blurred twice by a 3 × 3 box. The bars hardly change the column profile with the shear, so the stems'
// sharpening at their lean is small: the case of a real Australian specimen read `CZTZZEN` for `CITIZEN`.
const PITCH = 12;
const CAPITAL = 11;
const LENGTH = 20;
const LEAN = -0.15;
const LEFT = 2 * PITCH + PITCH / 2;

function leaningSerifedLine(): GrayscaleImage {
  const width = (LENGTH + 4) * PITCH;
  const height = 60;
  let ink = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const v = y - 30;
    if (Math.abs(v) > CAPITAL / 2) continue;
    for (let x = 0; x < width; x++) {
      const k = Math.round((x - LEAN * v - LEFT) / PITCH);
      if (k < 0 || k >= LENGTH) continue;
      const offset = Math.abs(x + 0.5 - (LEFT + k * PITCH + LEAN * v));
      const stem = Math.max(0, Math.min(1, 1.5 - offset));
      const bar = Math.abs(v) >= CAPITAL / 2 - 2 && offset <= 0.3 * PITCH ? 1 : 0;
      ink[y * width + x] = Math.max(stem, bar);
    }
  }
  for (let pass = 0; pass < 2; pass++) {
    const blurred = new Float32Array(ink.length);
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        let sum = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) sum += ink[(y + dy) * width + x + dx] as number;
        blurred[y * width + x] = sum / 9;
      }
    }
    ink = blurred;
  }
  return { pixels: Uint8Array.from(ink, (value) => Math.round(230 - 200 * value)), width, height };
}

const geometry: LineGeometry = { x: [LEFT, PITCH, 0], y: [30, 0], h: [CAPITAL, 0] };

describe('the lean of a zone’s print (mrz-cells.ts)', () => {
  it('is not taken on the columns’ small sharpening alone (motion blur can fake as much)', () => {
    assert.equal(withShear(leaningSerifedLine(), geometry, LENGTH).shear ?? 0, 0);
  });

  it('is taken when the zone’s left margin leans the same way, further than the cells', () => {
    const shear = withShear(leaningSerifedLine(), geometry, LENGTH, -0.27).shear ?? 0;
    assert.ok(Math.abs(shear - LEAN) <= 0.051, `shear ${shear}`);
  });

  it('is not taken when the margin leans the other way, or stands within a pixel of upright', () => {
    assert.equal(withShear(leaningSerifedLine(), geometry, LENGTH, 0.27).shear ?? 0, 0);
    assert.equal(withShear(leaningSerifedLine(), geometry, LENGTH, -0.03).shear ?? 0, 0);
  });

  it('measures the margin from the first line’s first cell to the last line’s', () => {
    const line = (firstCenter: number, y: number): LineGeometry => ({
      x: [firstCenter, 20, 0],
      y: [y, 0],
      h: [24, 0],
    });
    assert.equal(zoneLean([line(100, 200), line(88, 260)]), -0.2);
    assert.equal(zoneLean([line(100, 200), line(103, 230), line(106, 260)]), 0.1);
    assert.equal(zoneLean([line(100, 200)]), 0);
  });
});
