/**
 * The document number as the document's visual zone prints it: a reading independent of the MRZ's print.
 *
 * ICAO 9303 prints the document number twice: in the machine-readable zone, in OCR-B, and in the
 * visual zone above it, usually larger and in another face. In OCR-B a `0` is a rounded rectangle and an
 * `O` an ellipse of the same size; at the 6–7 px characters of a small photo the two differ by about a
 * pixel at each corner, which neither the glyph classifier nor Tesseract tells reliably (generated 300 px
 * zones: `7753062992` read `7753O62992` with the classifier at 1.00, and the zone's own print no nearer
 * its `0`s than its `O`s). The visual zone's print of the same number tells them apart, as a person
 * checking a passport would.
 *
 * Only the round glyphs (`0`, `O`, `D`, `Q`) are taken from it, and only where the zone's own reading of
 * the number is not settled: its check digit fails, or a round glyph in it is in doubt. Everything else
 * must agree, so the word found is the number, not another field. The check digit then judges the
 * result as it judges every reading: a single round glyph misread anywhere fails it, and two or more
 * taken from the visual zone count only when no other choice of round glyphs there would pass
 * (mrz-round-slips.ts). Nothing is searched: one reading is proposed and checked.
 */
import type { MrzFormat } from '../../../domain/mrz.ts';
import { numberOpenToReread, numberRead, rereadNumberStands } from './mrz-document-number.ts';
import { ROUND_GLYPHS } from './mrz-round-slips.ts';

/**
 * A character of the visual zone decides a round glyph when Tesseract gives it at least this confidence:
 * set before the bench, as Tesseract's own word for "sure" (on the first five generated visual zones
 * looked at, its round glyphs ran 0.82–0.99). The field's check digit judges the result whatever it is.
 */
export const MIN_VISUAL_CONFIDENCE = 0.9;

/** One word read in the visual zone: its characters and Tesseract's confidence in each (0–1). */
export interface VisualWord {
  text: string;
  confidences: readonly number[];
}

/** The most consecutive words of the visual zone joined into one candidate for the number. */
const MAX_JOINED_WORDS = 3;

const ROUND: ReadonlySet<string> = new Set(ROUND_GLYPHS);

/**
 * Every word, and every run of up to {@link MAX_JOINED_WORDS} consecutive words joined: a number printed
 * in groups (`C01X 00T4 7`), or split where Tesseract saw a gap.
 */
export function withNeighbours(words: readonly VisualWord[]): VisualWord[] {
  const runs: VisualWord[] = [];
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= Math.min(words.length, start + MAX_JOINED_WORDS); end++) {
      const run = words.slice(start, end);
      runs.push({
        text: run.map((word) => word.text).join(''),
        confidences: run.flatMap((word) => word.confidences),
      });
    }
  }
  return runs;
}

/**
 * Whether the visual zone is worth reading for this zone: its document number holds a round glyph, its
 * check digit is read surely, every other character of it is read surely, and the number is not settled
 * (its check digit fails, or a round glyph in it is in doubt).
 *
 * @example
 * needsVisualNumber('TD3', ['P<MEX…', '7753O62992MEX…'], [[], []]) // true: 7753O6299 fails its digit 2
 */
export function needsVisualNumber(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
): boolean {
  return numberOpenToReread(format, lines, uncertain) !== null;
}

/**
 * The zone's line holding the document number with its round glyphs as the visual zone prints them, and
 * the positions so settled; null when the visual zone does not settle it. A word (or up to three
 * consecutive words joined) settles it when it is as long as the number, agrees with it at every other
 * character, has a round glyph wherever the zone reads one, and is read at {@link MIN_VISUAL_CONFIDENCE}
 * where it decides; every such word must agree;
 * the field's check digit must pass; and when two or more glyphs are decided, no other choice of round
 * glyphs there may pass the check digits too.
 *
 * @example
 * numberFromVisualZone('TD3', ['P<MEX…', '7753O62992MEX…'], [[], []], [{ text: '775306299', confidences }])
 * // { line: 1, text: '7753062992MEX…', settled: [4] }
 */
export function numberFromVisualZone(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  words: readonly VisualWord[],
): { line: number; text: string; settled: number[] } | null {
  if (!needsVisualNumber(format, lines, uncertain)) return null;
  const { field, text, number } = numberRead(format, lines);
  const doubtful = uncertain[field.line] ?? [];
  const readings = new Set<string>();
  for (const word of withNeighbours(words)) {
    if (word.text.length !== number.length) continue;
    const agrees = [...number].every((read, i) => {
      const visual = word.text[i] as string;
      if (!ROUND.has(read)) return visual === read;
      if (!ROUND.has(visual)) return false;
      const decides = visual !== read || doubtful.includes(field.from + i);
      return !decides || (word.confidences[i] ?? 0) >= MIN_VISUAL_CONFIDENCE;
    });
    if (agrees) readings.add(word.text);
  }
  if (readings.size !== 1) return null;
  const [visual] = readings as Set<string>;
  const settled = [...number]
    .map((read, i) => ({ read, k: field.from + i, visual: (visual as string)[i] as string }))
    .filter(({ read, k, visual }) => ROUND.has(read) && (visual !== read || doubtful.includes(k)))
    .map(({ k }) => k);
  let reread = text;
  for (const k of settled)
    reread = reread.slice(0, k) + (visual as string)[k - field.from] + reread.slice(k + 1);
  return rereadNumberStands(format, field, reread, settled)
    ? { line: field.line, text: reread, settled }
    : null;
}
