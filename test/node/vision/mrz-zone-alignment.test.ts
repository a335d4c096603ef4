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

describe('the zone finder and a line mostly of fillers (mrz-zone.ts)', () => {
  /** A TD3 line of 44 boxes at a 17 px pitch whose measured height is `height` (its taller glyphs'). */
  function td3Line(centerY: number, height: number): TextLine {
    const glyphs = Array.from({ length: 44 }, (_, k) => ({
      id: 0,
      x0: 60 + 17 * k,
      y0: centerY - Math.floor(height / 2),
      x1: 60 + 17 * k + 9,
      y1: centerY - Math.floor(height / 2) + height - 1,
      area: 10 * height,
    }));
    return { glyphs, x0: 60, x1: 60 + 17 * 43 + 9, y0: centerY - 8, y1: centerY + 8, height, centerY };
  }

  it('spaces the lines by the taller line’s capitals, not by the chevrons of a names line', () => {
    // A real Russian page enlarged: the names line (a short name, then 27 chevrons) measures 13 px, the
    // number line 15 px, 50 px apart: 3.85 times the first, 3.3 times the second.
    const zone = findMrzZone([td3Line(1057, 13), td3Line(1107, 15)], MAP);
    assert.equal(zone?.format, 'TD3');
    assert.equal(zone?.lines.length, 2);
  });

  it('still takes two lines five capitals apart for two other texts', () => {
    assert.equal(findMrzZone([td3Line(1000, 15), td3Line(1080, 15)], MAP), null);
  });
});
