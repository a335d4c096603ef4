import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InkComponent } from '../../../server/runtime/node/vision/ink-components.ts';
import { groupTextLines } from '../../../server/runtime/node/vision/text-lines.ts';

function box(x0: number, y0: number, width: number, height: number): InkComponent {
  return { id: 0, x0, y0, x1: x0 + width - 1, y1: y0 + height - 1, area: width * height };
}

// A zone's number line as a small photo enlarged shows it: 44 capitals 22 px tall at a 20 px pitch, a
// chevron (17 px, lower in the line) in the ninth cell.
function numberLine(): InkComponent[] {
  return Array.from({ length: 44 }, (_, k) =>
    k === 8 ? box(60 + 20 * k, 633, 11, 17) : box(60 + 20 * k, 629, 13, 22),
  );
}

describe('glyphs grouped into lines (text-lines.ts)', () => {
  it("keeps a line whole beside the page's edge: one tall blob is no line's band yet", () => {
    // The generated corpus (seed 9, `mrz_300px/td3-04`): the page's edge left a blob 3 px wide and 52 px
    // tall 57 px left of the number line. Its band took the eight capitals before the chevron, which left
    // the zone finder a line of 36 glyphs starting at the chevron, and the zone was not found.
    const edge = box(0, 634, 3, 52);
    const lines = groupTextLines([edge, ...numberLine()], 1);
    const longest = lines.reduce((a, b) => (b.glyphs.length > a.glyphs.length ? b : a));
    assert.equal(longest.glyphs.length, 44);
    assert.equal(longest.x0, 60);
  });

  it('still takes a chevron inside the band of a line of capitals', () => {
    const lines = groupTextLines(numberLine());
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.glyphs.length, 44);
  });
});
