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
 *
 * A card's optional data (TD1's, TD2's) has no check digit of its own; the composite digit covers it with
 * everything else. When every other check digit of the zone passes and only the composite fails, with
 * nothing in doubt under it but round glyphs of the optional data, the slip is in the optional data (or
 * in slips elsewhere that cancel under their own digit, which the round-glyph guard stands against), and
 * the same proposal is made there, the composite judging it.
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
import {
  compositeDigitAt,
  coveredByComposite,
  failingCheckDigits,
  isRoundGlyph,
  roundSlipsCouldCancel,
} from './mrz-round-slips.ts';

/** A stretch of one zone line: positions `from` to `to`, both included. */
interface Span {
  line: number;
  from: number;
  to: number;
}

/**
 * The optional data that only the composite digit covers (ICAO 9303 parts 5 and 6): TD1's after the
 * document number's digit on the first line and before the composite on the second, TD2's before its
 * composite. A passport's (TD3) has its own digit and is a checked field.
 */
const OPTIONAL_DATA: Readonly<Record<MrzFormat, readonly Span[]>> = {
  TD1: [
    { line: 0, from: 15, to: 29 },
    { line: 1, from: 18, to: 28 },
  ],
  TD2: [{ line: 1, from: 28, to: 34 }],
  TD3: [],
};

/**
 * The second reader's round glyphs at the round glyphs of `text` from `span.from` to `last`, when it
 * reads every other character from `span.from` to `agreeTo` as `text` has it (round glyphs aside); null
 * when it reads one otherwise or changes nothing. `round` is every round glyph there, changed or not.
 */
function roundGlyphsProposed(
  text: string,
  from: number,
  last: number,
  agreeTo: number,
  other: ReadonlyMap<number, string>,
): { reread: string; changed: number[]; round: number[] } | null {
  // The second reader must read the rest as the classifier does wherever it reads it: a character read
  // wrongly and surely elsewhere, with a round glyph proposed, passes a digit one time in ten (`29385208`
  // read `29345208`, then `O` proposed for its `0`: −4·7 + 24·7 = 140).
  for (let k = from; k <= agreeTo; k++) {
    const second = other.get(k);
    const read = text[k] as string;
    if (second !== undefined && second !== read && !(isRoundGlyph(read) && isRoundGlyph(second))) return null;
  }
  const round: number[] = [];
  let reread = text;
  const changed: number[] = [];
  for (let k = from; k <= last; k++) {
    if (!isRoundGlyph(text[k] as string)) continue;
    round.push(k);
    const second = other.get(k);
    if (second === undefined || !isRoundGlyph(second) || second === text[k]) continue;
    reread = reread.slice(0, k) + second + reread.slice(k + 1);
    changed.push(k);
  }
  return changed.length > 0 ? { reread, changed, round } : null;
}

/**
 * The optional data of `span` is open to the second reader: the composite alone fails, its digit is read
 * surely, and nothing under the composite is in doubt but round glyphs of this span.
 */
function optionalDataOpen(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  span: Span,
): boolean {
  const [compositeLine, compositePosition] = compositeDigitAt(format);
  const failing = failingCheckDigits(format, lines);
  if (failing.length !== 1 || failing[0]?.[0] !== compositeLine || failing[0]?.[1] !== compositePosition)
    return false;
  if (!/[0-9]/.test(lines[compositeLine]?.[compositePosition] ?? '')) return false;
  return uncertain.every((doubtful, line) =>
    doubtful.every((k) => {
      if (line === compositeLine && k === compositePosition) return false;
      if (!coveredByComposite(format, line, k)) return true;
      const inSpan = line === span.line && k >= span.from && k <= span.to;
      return inSpan && isRoundGlyph(lines[line]?.[k] ?? '');
    }),
  );
}

/** The optional data's line with the second reader's round glyphs, when it is open and the composite passes. */
function optionalDataBySecondRead(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  other: ReadonlyMap<number, string>,
  span: Span,
): FieldReread {
  if (!optionalDataOpen(format, lines, uncertain, span)) return null;
  const [compositeLine, compositePosition] = compositeDigitAt(format);
  const text = lines[span.line] as string;
  const agreeTo = compositeLine === span.line ? compositePosition : span.to;
  const proposed = roundGlyphsProposed(text, span.from, span.to, agreeTo, other);
  if (!proposed) return null;
  const reread = lines.map((line, index) => (index === span.line ? proposed.reread : line));
  if (failingCheckDigits(format, reread).length > 0) return null;
  if (proposed.round.length >= 2 && roundSlipsCouldCancel(format, span.line, proposed.reread, proposed.round))
    return null;
  return { text: proposed.reread, changed: proposed.changed };
}

/**
 * The lines of the zone the second reader is asked about for this rule (where it was not asked already):
 * those of checked fields that fail their check digits and are open to another reading
 * (`numberOpenToReread`), and of optional data open to it.
 *
 * @example
 * linesWithNumbersFailingDigits('TD3', ['P<GRC…', '293852O8<1ESP…'], [[], []]) // [1]
 */
export function linesWithNumbersFailingDigits(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
): number[] {
  const fields = checkedNumberFields(format)
    .filter((field) => numberOpenToReread(format, lines, uncertain, field) === 'fails_digit')
    .map((field) => field.line);
  const optional = OPTIONAL_DATA[format]
    .filter((span) => optionalDataOpen(format, lines, uncertain, span))
    .map((span) => span.line);
  return [...new Set([...fields, ...optional])];
}

/**
 * The zone's lines with the round glyphs of each checked field that fails its check digit, then of
 * optional data under a failing composite, as the second reader reads them, and the positions so
 * changed by line; null when nothing changed. `secondReads` are the second reader's characters by
 * position, per line (absent where it was not asked).
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
  const byFields = rereadCheckedFields(format, lines, (current, field) => {
    const other = secondReads[field.line];
    return other ? fieldBySecondRead(format, current, uncertain, other, field) : null;
  });
  const current = byFields?.lines ?? [...lines];
  const changed = byFields?.changed ?? lines.map(() => []);
  for (const span of OPTIONAL_DATA[format]) {
    const other = secondReads[span.line];
    const byOptional = other && optionalDataBySecondRead(format, current, uncertain, other, span);
    if (!byOptional) continue;
    current[span.line] = byOptional.text;
    changed[span.line]?.push(...byOptional.changed);
  }
  return changed.some((positions) => positions.length > 0) ? { lines: current, changed } : null;
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
  const proposed = roundGlyphsProposed(text, field.from, field.from + number.length - 1, field.check, other);
  // Judged over every round glyph of the field, not only those changed: the digit fails because some
  // character is wrong, most often a round glyph the classifier was sure of, and the second reader agreed
  // with it there (a 300 px passport's `UXJO0X0IR`: the classifier's `O` for the second `0`, kept; the
  // second reader's `O` for the third, proposed; 24·3 + 24·7 = 240 passed the digit).
  if (!proposed || !rereadNumberStands(format, field, proposed.reread, proposed.round)) return null;
  return { text: proposed.reread, changed: proposed.changed };
}
