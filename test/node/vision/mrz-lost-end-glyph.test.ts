import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latticeWithLostEndGlyph } from '../../../server/runtime/node/vision/mrz-lost-end-glyph.ts';
import type { MrzLine } from '../../../server/runtime/node/vision/mrz-zone.ts';

const PITCH = 24;
const LENGTH = 36;

/**
 * A zone line of `count` glyphs 16 px wide, the first centred at `firstCenter`, one per pitch, with the
 * cells in `gaps` (counted from the first glyph) left empty.
 */
function line(firstCenter: number, count: number, gaps: readonly number[] = []): MrzLine {
  const cells = Array.from({ length: count + gaps.length }, (_, k) => k).filter((k) => !gaps.includes(k));
  const glyphs = cells.map((k) => {
    const x0 = Math.round(firstCenter + PITCH * k - 8);
    return { x0, x1: x0 + 15, y0: 100, y1: 120, area: 150 };
  });
  const x0 = glyphs[0]?.x0 ?? 0;
  const x1 = glyphs[glyphs.length - 1]?.x1 ?? 0;
  return {
    line: { glyphs, x0, x1, y0: 100, y1: 120, centerY: 110, height: 20 },
    firstCenter,
    pitch: PITCH,
    curve: 0,
    cells: Array.from({ length: LENGTH }, () => ({ filler: false, inked: true })),
    onLattice: count === LENGTH,
  } as unknown as MrzLine;
}

describe('a zone line that lost one glyph at an end', () => {
  const exact = line(80, LENGTH);

  it('is renumbered from the left when its first glyph sits one pitch right of the exact line', () => {
    const short = line(80 + PITCH, LENGTH - 1);
    const placed = latticeWithLostEndGlyph(short, [short, exact], LENGTH);
    assert.ok(placed);
    assert.equal(placed.onLattice, true);
    assert.equal(placed.firstCenter, 80);
    assert.equal(placed.pitch, PITCH);
  });

  it('keeps its own lattice when it starts where the exact line does (its last glyph lost)', () => {
    const short = line(80, LENGTH - 1);
    const placed = latticeWithLostEndGlyph(short, [short, exact], LENGTH);
    assert.ok(placed);
    assert.equal(placed.firstCenter, 80);
    assert.equal(placed.pitch, PITCH);
  });

  it('is left to the ends when no line of the zone is counted exactly', () => {
    const short = line(80 + PITCH, LENGTH - 1);
    assert.equal(latticeWithLostEndGlyph(short, [short, line(80, LENGTH - 1)], LENGTH), undefined);
  });

  it('is left to the ends when its start is off by a fraction of a pitch', () => {
    const short = line(80 + PITCH * 0.5, LENGTH - 1);
    assert.equal(latticeWithLostEndGlyph(short, [short, exact], LENGTH), undefined);
  });

  it('is left to the ends when its glyphs span the whole line (one lost in the middle)', () => {
    const short = line(80, LENGTH - 1, [17]);
    assert.equal(latticeWithLostEndGlyph(short, [short, exact], LENGTH), undefined);
  });

  it('leaves an exact line alone', () => {
    assert.equal(latticeWithLostEndGlyph(exact, [exact, line(80, LENGTH)], LENGTH), undefined);
  });
});
