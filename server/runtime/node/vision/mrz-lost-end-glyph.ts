/**
 * A zone line whose finder lost one glyph at an end, placed by the zone's other lines.
 *
 * The lines of a machine-readable zone are printed flush left, at one pitch, each with every position
 * inked. When the finder counts one line exactly and another one glyph short, and the short line's ends
 * span one pitch fewer than the line needs, the short line lost a glyph at an end, not in its middle.
 * Stretching its cells from its first glyph to its last (latticeFromEnds in read-mrz.ts) then drifts
 * them by up to a whole character along the line. Which end was lost is told by the exact line: the
 * short line's first glyph sits where the exact line's first character does (the lost glyph was the
 * last) or one pitch to its right (the lost glyph was the first, as a card's `A` at 300 px was lost
 * beside the page's edge). The short line keeps its own glyphs' lattice, renumbered from that end.
 * Anything else (two glyphs short, a start off by a fraction of a pitch) is left to latticeFromEnds.
 */
import { latticePosition, type MrzLine } from './mrz-zone.ts';

/**
 * How far, in pitches, the short line's span and its first glyph may be from where one lost end glyph
 * puts them: a third of a character, well inside the half that would make it another cell.
 */
export const END_GLYPH_TOLERANCE = 0.35;

/** A line the finder counted exactly: every position on its lattice. */
export function isExactLine(line: MrzLine, length: number): boolean {
  return line.onLattice && line.cells.length === length;
}

/**
 * The lattice of `line` when it lost one glyph at an end and an exactly counted line of its zone tells
 * which; otherwise undefined.
 *
 * @example
 * // A TD2 card's first line found from its second character: renumbered one cell to the left.
 * latticeWithLostEndGlyph(firstLine, [firstLine, secondLine], 36) // { …firstLine, firstCenter: 80.1, … }
 */
export function latticeWithLostEndGlyph(
  line: MrzLine,
  zoneLines: readonly MrzLine[],
  length: number,
): MrzLine | undefined {
  const glyphs = line.line.glyphs;
  const first = glyphs[0];
  const last = glyphs[glyphs.length - 1];
  if (isExactLine(line, length) || !first || !last || line.pitch <= 0) return undefined;
  const exact = zoneLines.find((other) => other !== line && isExactLine(other, length));
  if (!exact) return undefined;
  // The last glyph's cell when the first glyph's is 0 (the lattice is fitted from the first glyph on):
  // one lost end glyph leaves length − 2.
  const span = latticePosition(line, last.x0 + (line.firstCenter - first.x0));
  if (Math.abs(span - (length - 2)) > END_GLYPH_TOLERANCE) return undefined;
  const cells = Array.from({ length }, () => ({ filler: false, inked: true }));
  const offset = (line.firstCenter - exact.firstCenter) / line.pitch;
  if (Math.abs(offset) <= END_GLYPH_TOLERANCE) return { ...line, cells, onLattice: true };
  if (Math.abs(offset - 1) <= END_GLYPH_TOLERANCE) {
    // Cell k of the line is its glyph k − 1: the same curve, renumbered.
    const { pitch, curve } = line;
    return {
      ...line,
      firstCenter: line.firstCenter - pitch + curve,
      pitch: pitch - 2 * curve,
      cells,
      onLattice: true,
    };
  }
  return undefined;
}
