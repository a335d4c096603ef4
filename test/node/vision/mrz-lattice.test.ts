import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InkComponent } from '../../../server/runtime/node/vision/ink-components.ts';
import { latticeOf } from '../../../server/runtime/node/vision/mrz-zone.ts';
import type { TextLine } from '../../../server/runtime/node/vision/text-lines.ts';

// A zone line as the glyph finder hands it over: one box per blob, at a 20 px pitch, capitals 20 px tall
// and 15 px wide (the 275 px Utopia page enlarged to 1,000 px).
const PITCH = 20;
const WIDTH = 15;

function box(x0: number, width = WIDTH, id = 0): InkComponent {
  return { id, x0, y0: 100, x1: x0 + width - 1, y1: 119, area: width * 20 };
}

function lineOf(glyphs: InkComponent[]): TextLine {
  return {
    glyphs,
    x0: Math.min(...glyphs.map((g) => g.x0)),
    x1: Math.max(...glyphs.map((g) => g.x1)),
    y0: 100,
    y1: 119,
    height: 20,
    centerY: 110,
  };
}

/** A 44-character line; `shape` may give a position other boxes (pieces, a narrow stem). */
function line44(shape: (k: number, x: number) => InkComponent[] = (_, x) => [box(x)]): TextLine {
  return lineOf(Array.from({ length: 44 }, (_, k) => shape(k, 40 + PITCH * k)).flat());
}

describe('the lattice of a zone line (mrz-zone.ts)', () => {
  it('counts a clean line of 44 characters', () => {
    const lattice = latticeOf(line44());
    assert.equal(lattice?.count, 44);
    assert.ok(Math.abs((lattice?.pitch ?? 0) - PITCH) < 0.01);
  });

  it('counts a character broken in two as one (an `N` in two pieces 7 px wide)', () => {
    const broken = line44((k, x) => (k === 20 ? [box(x, 7), box(x + 8, 7)] : [box(x)]));
    assert.equal(broken.glyphs.length, 45);
    const lattice = latticeOf(broken);
    assert.equal(lattice?.count, 44);
    assert.ok(Math.abs((lattice?.firstCenter ?? 0) - (40 + WIDTH / 2)) < 0.5);
  });

  it('gives a character its cell when a speck of ink stands just left of it', () => {
    // Generated half B, `mrz_300px/td3-02`, enlarged to 1,000 px: a 4 px speck 2 px left of `ANNA`'s `N`.
    const specked = line44((k, x) => (k === 14 ? [box(x - 2, 4), box(x)] : [box(x)]));
    assert.equal(specked.glyphs.length, 45);
    const lattice = latticeOf(specked);
    assert.equal(lattice?.count, 44);
    assert.ok(Math.abs((lattice?.pitch ?? 0) - PITCH) < 0.01);
  });

  it('leaves a blob as wide as a character right beside one to the count (a motion-blur ghost)', () => {
    const ghosted = line44((k, x) => (k === 20 ? [box(x), box(x + 2)] : [box(x)]));
    assert.notEqual(latticeOf(ghosted)?.count, 44);
  });

  it('keeps a narrow stem (`I`, `1`) and the character after it, each a cell', () => {
    const stems = line44((k, x) => (k % 7 === 3 ? [box(x + 6, 3)] : [box(x)]));
    assert.equal(latticeOf(stems)?.count, 44);
  });

  it('still counts a gap of one cell as a character (a filler lost to the glyph finder)', () => {
    const gap = line44((k, x) => (k === 30 ? [] : [box(x)]));
    assert.equal(gap.glyphs.length, 43);
    assert.equal(latticeOf(gap)?.count, 44);
  });
});
