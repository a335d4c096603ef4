import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InkComponent } from '../../../server/runtime/node/vision/ink-components.ts';
import {
  cellPatch,
  lineGeometry,
  CELL_HEIGHT,
  CELL_WIDTH,
} from '../../../server/runtime/node/vision/mrz-cells.ts';
import type { MrzLine } from '../../../server/runtime/node/vision/mrz-zone.ts';

const PITCH = 20;
const FIRST = 40;
const LENGTH = 44;
const CAPITAL = 23;

/**
 * A TD3 line whose glyph centres lie at `centreY(k)`: a real Australian passport photographed on a
 * curving page bowed its second line by 6 px on 23 px capitals (cells 0 and 43 low, cell 20 high).
 */
function line(centreY: (k: number) => number): MrzLine {
  const glyphs: InkComponent[] = Array.from({ length: LENGTH }, (_, k) => {
    const cx = FIRST + PITCH * k;
    const cy = centreY(k);
    return {
      id: k + 1,
      x0: Math.round(cx - 7),
      x1: Math.round(cx + 7),
      y0: Math.round(cy - CAPITAL / 2),
      y1: Math.round(cy + CAPITAL / 2),
      area: 120,
    };
  });
  const ys = glyphs.map((g) => (g.y0 + g.y1) / 2).sort((a, b) => a - b);
  return {
    line: {
      glyphs,
      x0: (glyphs[0] as InkComponent).x0,
      x1: (glyphs[LENGTH - 1] as InkComponent).x1,
      y0: Math.min(...glyphs.map((g) => g.y0)),
      y1: Math.max(...glyphs.map((g) => g.y1)),
      height: CAPITAL,
      centerY: ys[Math.floor(ys.length / 2)] as number,
    },
    firstCenter: FIRST,
    pitch: PITCH,
    curve: 0,
    cells: Array.from({ length: LENGTH }, () => ({ filler: false, inked: true })),
    onLattice: true,
  };
}

const bowed = (k: number) => 100 + 12 * ((k - 21.5) / 21.5) ** 2;

/** A white page with a dark block of capital height at each glyph of `zone`. */
function page(zone: MrzLine) {
  const width = FIRST + PITCH * LENGTH + 40;
  const height = 160;
  const pixels = new Uint8Array(width * height).fill(230);
  for (const g of zone.line.glyphs)
    for (let y = g.y0; y <= g.y1; y++) for (let x = g.x0; x <= g.x1; x++) pixels[y * width + x] = 25;
  return { pixels, width, height };
}

/** Row of the patch's inked centre: CELL_HEIGHT / 2 when the cell is centred on its glyph. */
function inkCentreRow(patch: Float32Array): number {
  let sum = 0;
  let total = 0;
  for (let row = 0; row < CELL_HEIGHT; row++)
    for (let col = 0; col < CELL_WIDTH; col++) {
      sum += row * (patch[row * CELL_WIDTH + col] as number);
      total += patch[row * CELL_WIDTH + col] as number;
    }
  return sum / total;
}

describe('a zone line that bows', () => {
  it('centres the cells at its ends on their glyphs, where a straight fit misses by a quarter capital', () => {
    const zone = line(bowed);
    const geometry = lineGeometry(zone);
    assert.ok(geometry.bow, 'the bow is fitted');
    const gray = page(zone);
    for (const k of [0, 21, LENGTH - 1]) {
      const row = inkCentreRow(cellPatch(gray, geometry, k));
      assert.ok(Math.abs(row - (CELL_HEIGHT - 1) / 2) < 1, `cell ${k}: ink centred at row ${row.toFixed(2)}`);
    }
    const straight = { ...geometry, bow: undefined };
    const off = inkCentreRow(cellPatch(gray, straight, 0));
    assert.ok(
      Math.abs(off - (CELL_HEIGHT - 1) / 2) > 2,
      `the straight fit centres cell 0 at row ${off.toFixed(2)}`,
    );
  });

  it('keeps a straight line straight, its glyphs a pixel up or down at random', () => {
    const jitter = [0, 1, -1, 0, 1, 0, -1, -1, 1, 0];
    const geometry = lineGeometry(line((k) => 100 + 0.05 * k + (jitter[k % jitter.length] as number)));
    assert.equal(geometry.bow, undefined);
  });
});
