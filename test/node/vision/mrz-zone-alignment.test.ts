import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InkComponent, InkMap } from '../../../server/runtime/node/vision/ink-components.ts';
import { findMrzZone } from '../../../server/runtime/node/vision/mrz-zone.ts';
import type { TextLine } from '../../../server/runtime/node/vision/text-lines.ts';

// A TD1 zone as the glyph finder hands it over: three lines of 30 boxes at a 20 px pitch, capitals 20 px
// tall and 15 px wide, 32 px apart, every line starting at x = 40.
const PITCH = 20;
const WIDTH = 15;
const LEFT = 40;

function box(x0: number, y0: number): InkComponent {
  return { id: 0, x0, y0, x1: x0 + WIDTH - 1, y1: y0 + 19, area: WIDTH * 20 };
}

/** Line `row` of the zone, with a lone box `strayPitches` pitches left of its first character. */
function zoneLine(row: number, strayPitches?: number): TextLine {
  const y0 = 100 + 32 * row;
  const glyphs = Array.from({ length: 30 }, (_, k) => box(LEFT + PITCH * k, y0));
  if (strayPitches !== undefined) glyphs.unshift(box(LEFT - PITCH * strayPitches, y0));
  return {
    glyphs,
    x0: Math.min(...glyphs.map((g) => g.x0)),
    x1: Math.max(...glyphs.map((g) => g.x1)),
    y0,
    y1: y0 + 19,
    height: 20,
    centerY: y0 + 10,
  };
}

// No chevron shapes: every box is a plain block, so no line reads as upside down.
const MAP: InkMap = { width: 800, height: 300, labels: new Int32Array(800 * 300), components: [] };

describe('the zone finder and ink beside the zone (mrz-zone.ts)', () => {
  it('drops a lone glyph left of two lines when that aligns them with the first (a card’s vertical print)', () => {
    const zone = findMrzZone([zoneLine(0), zoneLine(1, 2), zoneLine(2, 2)], MAP);
    assert.equal(zone?.format, 'TD1');
    assert.deepEqual(
      zone?.lines.map((line) => [line.line.x0, line.line.glyphs.length, line.onLattice]),
      [
        [LEFT, 30, true],
        [LEFT, 30, true],
        [LEFT, 30, true],
      ],
    );
  });

  it('drops it from the first line when the line below starts in the zone’s column', () => {
    const zone = findMrzZone([zoneLine(0, 2), zoneLine(1), zoneLine(2)], MAP);
    assert.equal(zone?.format, 'TD1');
    assert.deepEqual(
      zone?.lines.map((line) => line.line.x0),
      [LEFT, LEFT, LEFT],
    );
  });

  it('keeps a first glyph two pitches out when every line has one (a filler lost at each second cell)', () => {
    const zone = findMrzZone([zoneLine(0, 2), zoneLine(1, 2), zoneLine(2, 2)], MAP);
    assert.deepEqual(
      zone?.lines.map((line) => line.line.x0),
      [LEFT - 2 * PITCH, LEFT - 2 * PITCH, LEFT - 2 * PITCH],
    );
  });

  it('keeps a line apart whose first glyph is a character’s step away (nothing lone to drop)', () => {
    const zone = findMrzZone([zoneLine(0), zoneLine(1, 1), zoneLine(2, 1)], MAP);
    // Lines 2 and 3 start one pitch left of line 1 (31 glyphs in a row): within the zone's column.
    assert.equal(zone?.lines[1]?.line.glyphs.length, 31);
  });
});
