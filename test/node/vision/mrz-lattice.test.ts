import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InkComponent } from '../../../server/runtime/node/vision/ink-components.ts';
import type { MrzLine } from '../../../server/runtime/node/vision/mrz-zone.ts';
import { latticeFromEnds } from '../../../server/runtime/node/vision/read-mrz.ts';

const PITCH = 8.1;
const FIRST = 27;
const LENGTH = 36;

/** A TD2 line at 8 px a character whose glyphs were found up to cell `lastFound` (a lost tail after it). */
function line(lastFound: number, foundPitch = PITCH): MrzLine {
  const glyphs: InkComponent[] = Array.from({ length: lastFound + 1 }, (_, k) => {
    const cx = FIRST + foundPitch * k;
    return { id: k + 1, x0: Math.round(cx - 3), x1: Math.round(cx + 2), y0: 100, y1: 108, area: 30 };
  });
  const last = glyphs[glyphs.length - 1] as InkComponent;
  return {
    line: {
      glyphs,
      x0: (glyphs[0] as InkComponent).x0,
      x1: last.x1,
      y0: 100,
      y1: 108,
      height: 9,
      centerY: 104,
    },
    firstCenter: FIRST,
    pitch: PITCH,
    curve: 0,
    cells: Array.from({ length: lastFound + 1 }, () => ({ filler: false, inked: true })),
    onLattice: false,
  };
}

const centreOf = (lattice: MrzLine, k: number) =>
  lattice.firstCenter + lattice.pitch * k + lattice.curve * k * k;

describe('the lattice of a zone line the finder could not count', () => {
  it('keeps the glyphs’ own pitch when the line’s tail was lost (300 px lines: fillers melted into runs)', () => {
    // 31 of 36 cells found: stretching them to the last glyph would drift the middle by half a character.
    const lattice = latticeFromEnds(line(30), LENGTH);
    assert.equal(lattice.cells.length, LENGTH);
    for (const k of [0, 18, 35])
      assert.ok(
        Math.abs(centreOf(lattice, k) - (FIRST + PITCH * k)) < 1,
        `cell ${k} at ${centreOf(lattice, k)}`,
      );
  });

  it('spans the first to the last glyph when they agree with the glyphs’ pitch (a glyph merged or split)', () => {
    // Every cell found, at a pitch 3 % under the fitted one (perspective): the ends are the truth.
    const lattice = latticeFromEnds(line(35, PITCH * 0.97), LENGTH);
    assert.ok(Math.abs(centreOf(lattice, 35) - (FIRST + PITCH * 0.97 * 35)) < 1);
    assert.equal(lattice.curve, 0);
  });

  it('takes a first glyph merged with a stamp beside the line by its inner edge (a Croatian specimen)', () => {
    // The first `0` and the red stamp left of it are one blob 14 px wide instead of 5: its left edge is
    // the stamp's, and a lattice from there starts half a character early and misreads the number.
    const merged = line(35);
    const glyphs = merged.line.glyphs.map((glyph, k) => (k === 0 ? { ...glyph, x0: glyph.x0 - 9 } : glyph));
    const first = glyphs[0] as InkComponent;
    const stamped: MrzLine = { ...merged, line: { ...merged.line, glyphs, x0: first.x0 } };
    const lattice = latticeFromEnds(stamped, LENGTH);
    const clean = latticeFromEnds(merged, LENGTH);
    for (const k of [0, 1, 18, 35])
      assert.ok(
        Math.abs(centreOf(lattice, k) - centreOf(clean, k)) < 0.5,
        `cell ${k} at ${centreOf(lattice, k)}, without the stamp ${centreOf(clean, k)}`,
      );
  });
});
