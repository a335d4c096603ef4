import type { MrzFormat } from '../../../domain/mrz.ts';
import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import type { MrzReading } from '../../../features/vision/vision-engine.ts';
import { sizeOf } from './ink-components.ts';
import { type CellJitter, cellPatch, lineGeometry } from './mrz-cells.ts';
import { classifyGlyph, MRZ_ALPHABET } from './mrz-glyph-model.ts';
import { MRZ_SHAPES, type MrzLine, type MrzZone } from './mrz-zone.ts';

/**
 * What each position of a zone may hold (ICAO 9303 parts 4–6): `A` letters or filler, `N` digits or
 * filler (an empty check digit), `X` any. The layout is what the document is, not a guess: reading a
 * position as the best letter where only letters are allowed corrects nothing a check digit would judge.
 */
const LAYOUTS: Readonly<Record<MrzFormat, readonly string[]>> = {
  TD1: [
    'AAAAA' + 'X'.repeat(9) + 'N' + 'X'.repeat(15),
    'NNNNNNN' + 'A' + 'NNNNNNN' + 'AAA' + 'X'.repeat(11) + 'N',
    'A'.repeat(30),
  ],
  TD2: ['A'.repeat(36), 'X'.repeat(9) + 'N' + 'AAA' + 'NNNNNNN' + 'A' + 'NNNNNNN' + 'X'.repeat(7) + 'N'],
  TD3: ['A'.repeat(44), 'X'.repeat(9) + 'N' + 'AAA' + 'NNNNNNN' + 'A' + 'NNNNNNN' + 'X'.repeat(14) + 'NN'],
};

/**
 * A character counts as read only when the classifier gives it at least this probability among the
 * characters its position allows, on both of its two samplings. Below it the position is reported
 * uncertain and the reading does not count as read (`parseMrz`'s `uncertain`): the check digits are
 * never asked to pick between look-alikes.
 */
export const MIN_CHARACTER_CONFIDENCE = 0.9;
/** The second sampling of each cell: shifted and scaled a little, an independent look at the same ink. */
const SECOND_LOOK: CellJitter = { dx: 0.06, dy: -0.04, scale: 1.06 };

const ALLOWED: Readonly<Record<string, readonly number[]>> = {
  A: indicesOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ<'),
  N: indicesOf('0123456789<'),
  X: indicesOf(MRZ_ALPHABET),
};

function indicesOf(characters: string): number[] {
  return [...characters].map((c) => MRZ_ALPHABET.indexOf(c));
}

/** The allowed character with the highest probability, and that probability among the allowed ones. */
function bestAllowed(
  probabilities: Float32Array,
  allowed: readonly number[],
): { index: number; share: number } {
  let best = allowed[0] as number;
  let total = 0;
  for (const index of allowed) {
    total += probabilities[index] as number;
    if ((probabilities[index] as number) > (probabilities[best] as number)) best = index;
  }
  return { index: best, share: total > 0 ? (probabilities[best] as number) / total : 0 };
}

/**
 * The line's lattice when the zone finder could not count it exactly (a glyph merged or split at a
 * line's end, a pitch that changes in perspective): every MRZ position prints a character, so the
 * first and the last glyph are the first and the last cell.
 */
function latticeFromEnds(line: MrzLine, length: number): MrzLine {
  const glyphs = line.line.glyphs;
  const widths = glyphs.map((g) => sizeOf(g).width).filter((w) => w <= line.line.height * 1.3);
  widths.sort((a, b) => a - b);
  const charWidth = widths[Math.floor(widths.length / 2)] ?? line.pitch;
  const first = line.line.x0 + charWidth / 2;
  const last = line.line.x1 - charWidth / 2;
  const pitch = (last - first) / (length - 1);
  const cells = Array.from({ length }, () => ({ filler: false, inked: true }));
  return { ...line, firstCenter: first, pitch, curve: 0, cells, onLattice: true };
}

/**
 * Reads the machine-readable zone cell by cell: each line's geometry is fitted from its own glyphs
 * (`mrz-cells.ts`), each character cell resampled to a fixed size and classified by the glyph model
 * twice (two samplings of the same cell); the position's layout limits the choice to letters or digits
 * where the format prescribes them. Positions whose character is not confidently read on both looks are
 * listed in `uncertain`. Nothing is corrected afterwards.
 *
 * @example
 * readMrz(gray, zone) // { lines: ['P<UTO…', 'L898902C3…'], confidence: 0.99, uncertain: [[], []] }
 */
export function readMrz(gray: GrayscaleImage, zone: MrzZone): MrzReading {
  const { length } = MRZ_SHAPES[zone.format];
  const layout = LAYOUTS[zone.format];
  const lines: string[] = [];
  const uncertain: number[][] = [];
  let sum = 0;
  let count = 0;
  for (const [index, found] of zone.lines.entries()) {
    const line = found.onLattice && found.cells.length === length ? found : latticeFromEnds(found, length);
    const geometry = lineGeometry(line);
    let text = '';
    const doubtful: number[] = [];
    for (let k = 0; k < length; k++) {
      const allowed = ALLOWED[layout[index]?.[k] ?? 'X'] as readonly number[];
      const first = bestAllowed(classifyGlyph(cellPatch(gray, geometry, k)), allowed);
      const second = bestAllowed(classifyGlyph(cellPatch(gray, geometry, k, SECOND_LOOK)), allowed);
      const agree = first.index === second.index;
      const confidence = agree ? Math.min(first.share, second.share) : 0;
      text += MRZ_ALPHABET[first.share >= second.share ? first.index : second.index];
      if (confidence < MIN_CHARACTER_CONFIDENCE) doubtful.push(k);
      sum += confidence;
      count++;
    }
    lines.push(text);
    uncertain.push(doubtful);
  }
  return { lines, confidence: count > 0 ? sum / count : 0, uncertain };
}
