/**
 * The round glyphs of a checked field that fails its check digit (the document number, a passport's
 * personal number) as the second reader reads them, the check digit judging the one reading proposed.
 *
 * At the 6–7 px capitals of a zone about 300 px wide the glyph classifier reads OCR-B's `0` as `O` (or
 * `D`) and is sure of it; the zone's own print (`mrz-number-by-print.ts`) settles such a glyph only when
 * the zone prints enough sure `0`s and `O`s elsewhere, and the visual zone (`mrz-visual-zone.ts`) only
 * when Tesseract reads the whole number there without another slip. Tesseract reading the zone's line
 * itself (`second-read.ts`, a different model trained on different data) is a third reader of the same
 * cells. Alone its `0` against the classifier's `O` proves nothing (its English model read every `0` of a
 * real card's `0000000033` as `O`): it is asked only where the field already fails its check digit, and
 * the digit judges what it proposes.
 *
 * The terms are those of the two other rereadings (`mrz-document-number.ts`): every other character of
 * the field and its check digit read surely, one reading proposed (each round glyph where the second
 * reader reads another round glyph), and the check digit passing it. And stricter than theirs: when the
 * field holds two or more round glyphs, changed or not, no other choice of round glyphs there may pass
 * the check digits too. The digit failed because a character is wrong, most likely a round glyph the
 * classifier was sure of; where the second reader agrees with that slip and proposes a change elsewhere,
 * the two can cancel (`0`→`O` at weights 7 and 3 adds 240). One round glyph read wrongly always fails the
 * digit (the round glyphs' values differ by 2, 11, 13, 24 or 26, never a multiple of 10), so a wrong
 * proposal that stands needs a character of the field other than a round glyph read surely and wrongly,
 * and the slips to cancel. Against that, the second reader must read every other character of the field
 * and its check digit as the classifier does wherever it reads one (round glyphs aside, which it confuses
 * as the classifier does): the visual zone's word is held to the same.
 */
import type { MrzFormat } from '../../../domain/mrz.ts';
import {
  checkedNumberFields,
  type FieldReread,
  type NumberField,
  numberOpenToReread,
  numberRead,
  rereadCheckedFields,
  rereadNumberStands,
} from './mrz-document-number.ts';
import { isRoundGlyph } from './mrz-round-slips.ts';

/**
 * The lines of the zone whose checked fields fail their check digits and are open to another reading
 * (`numberOpenToReread`): the second reader is asked about these (where it was not asked already).
 *
 * @example
 * linesWithNumbersFailingDigits('TD3', ['P<GRC…', '293852O8<1ESP…'], [[], []]) // [1]
 */
export function linesWithNumbersFailingDigits(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
): number[] {
  const failing = checkedNumberFields(format)
    .filter((field) => numberOpenToReread(format, lines, uncertain, field) === 'fails_digit')
    .map((field) => field.line);
  return [...new Set(failing)];
}

/**
 * The zone's lines with the round glyphs of each checked field that fails its check digit as the second
 * reader reads them, and the positions so changed by line; null when no field changed. `secondReads` are
 * the second reader's characters by position, per line (absent where it was not asked).
 *
 * @example
 * numberBySecondRead('TD3', ['P<GRC…', '293852O8<1ESP…'], [[], []], [undefined, new Map([[6, '0']])])
 * // { lines: ['P<GRC…', '29385208<1ESP…'], changed: [[], [6]] }: 29385208 passes its digit 1
 */
export function numberBySecondRead(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  secondReads: readonly (ReadonlyMap<number, string> | undefined)[],
): { lines: string[]; changed: number[][] } | null {
  return rereadCheckedFields(format, lines, (current, field) => {
    const other = secondReads[field.line];
    return other ? fieldBySecondRead(format, current, uncertain, other, field) : null;
  });
}

/** One field's line with the second reader's round glyphs, when the field is open to it and the result stands. */
function fieldBySecondRead(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  other: ReadonlyMap<number, string>,
  numberField: NumberField,
): FieldReread {
  if (numberOpenToReread(format, lines, uncertain, numberField) !== 'fails_digit') return null;
  const { field, text, number } = numberRead(format, lines, numberField);
  // The second reader must read the rest of the field as the classifier does wherever it reads it: a
  // character read wrongly and surely elsewhere, with a round glyph proposed, passes the digit one time in
  // ten (`29385208` read `29345208`, then `O` proposed for its `0`: −4·7 + 24·7 = 140).
  const span = Array.from({ length: field.check - field.from + 1 }, (_, i) => field.from + i);
  const disagrees = span.some((k) => {
    const second = other.get(k);
    const read = text[k] as string;
    return second !== undefined && second !== read && !(isRoundGlyph(read) && isRoundGlyph(second));
  });
  if (disagrees) return null;
  const round = [...number].flatMap((character, i) => (isRoundGlyph(character) ? [field.from + i] : []));
  let reread = text;
  const changed: number[] = [];
  for (const k of round) {
    const second = other.get(k);
    if (second === undefined || !isRoundGlyph(second) || second === text[k]) continue;
    reread = reread.slice(0, k) + second + reread.slice(k + 1);
    changed.push(k);
  }
  // Judged over every round glyph of the field, not only those changed: the digit fails because some
  // character is wrong, most often a round glyph the classifier was sure of, and the second reader agreed
  // with it there (a 300 px passport's `UXJO0X0IR`: the classifier's `O` for the second `0`, kept; the
  // second reader's `O` for the third, proposed; 24·3 + 24·7 = 240 passed the digit).
  if (changed.length === 0 || !rereadNumberStands(format, field, reread, round)) return null;
  return { text: reread, changed };
}
