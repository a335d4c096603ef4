/**
 * The document number as the zone reads it, and when its round glyphs may be read again from another
 * source: the visual zone's print of the number (`mrz-visual-zone.ts`) or the zone's own print
 * (`mrz-number-by-print.ts`). Both rules ask the same questions of the number and accept a reading on the
 * same terms, so the terms live here. The same terms hold for a passport's personal number, the other
 * field where letters and digits may both stand under a check digit of its own.
 */
import type { MrzFormat } from '../../../domain/mrz.ts';
import { checkDigitOf, ROUND_GLYPHS, roundSlipsCouldCancel } from './mrz-round-slips.ts';

/** Where the document number and its check digit stand (ICAO 9303 parts 4–6, positions from 0). */
export interface NumberField {
  line: number;
  from: number;
  to: number;
  check: number;
}

const NUMBER_FIELDS: Readonly<Record<MrzFormat, NumberField>> = {
  TD1: { line: 0, from: 5, to: 13, check: 14 },
  TD2: { line: 1, from: 0, to: 8, check: 9 },
  TD3: { line: 1, from: 0, to: 8, check: 9 },
};

/**
 * A passport's personal number (or other optional data) and its check digit (ICAO 9303 part 4: TD3's
 * second line, 29–42 and 43 counted from 1). TD1's and TD2's optional data have no check digit of their
 * own, only the composite's.
 */
const PERSONAL_NUMBER_FIELD: NumberField = { line: 1, from: 28, to: 41, check: 42 };

/**
 * The fields whose characters may be letters or digits and whose own check digit judges them: the
 * document number, and on a passport the personal number.
 *
 * @example
 * checkedNumberFields('TD3') // [{ line: 1, from: 0, to: 8, check: 9 }, { line: 1, from: 28, to: 41, check: 42 }]
 */
export function checkedNumberFields(format: MrzFormat): readonly NumberField[] {
  return format === 'TD3' ? [NUMBER_FIELDS.TD3, PERSONAL_NUMBER_FIELD] : [NUMBER_FIELDS[format]];
}

const ROUND: ReadonlySet<string> = new Set(ROUND_GLYPHS);

/**
 * The number as read: its characters up to the first filler (a number shorter than the field). `field`
 * is the document number's unless another of {@link checkedNumberFields} is named.
 */
export function numberRead(
  format: MrzFormat,
  lines: readonly string[],
  field: NumberField = NUMBER_FIELDS[format],
) {
  const text = lines[field.line] ?? '';
  const printed = text.slice(field.from, field.to + 1);
  const filler = printed.indexOf('<');
  return { field, text, number: filler < 0 ? printed : printed.slice(0, filler) };
}

/** Whether the number's line `text` passes the number's check digit. */
export function numberPassesItsDigit(field: NumberField, text: string): boolean {
  return checkDigitOf(text.slice(field.from, field.to + 1)) === text[field.check];
}

/**
 * Why the number's round glyphs may be read again, or null: the number holds a round glyph, its check
 * digit is read surely (a digit), every other character of it is read surely, and the number is not
 * settled: its check digit fails (`fails_digit`), or it passes with a round glyph in doubt
 * (`round_in_doubt`).
 *
 * @example
 * numberOpenToReread('TD3', ['P<MEX…', '7753O62992MEX…'], [[], []]) // 'fails_digit': 7753O6299 fails its digit 2
 */
export function numberOpenToReread(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  numberField: NumberField = NUMBER_FIELDS[format],
): 'fails_digit' | 'round_in_doubt' | null {
  const { field, text, number } = numberRead(format, lines, numberField);
  const doubtful = uncertain[field.line] ?? [];
  const positions = [...number].map((_, i) => field.from + i);
  const round = positions.filter((k) => ROUND.has(text[k] as string));
  if (round.length === 0 || doubtful.includes(field.check)) return null;
  if (positions.some((k) => doubtful.includes(k) && !round.includes(k))) return null;
  if (!/[0-9]/.test(text[field.check] ?? '')) return null;
  if (!numberPassesItsDigit(field, text)) return 'fails_digit';
  return round.some((k) => doubtful.includes(k)) ? 'round_in_doubt' : null;
}

/**
 * Whether the number's line as read again (`reread`, with the round glyphs at `changed` taken from the
 * other source) stands: the check digit passes, and when two or more glyphs changed, no other choice of
 * round glyphs there would pass too (`mrz-round-slips.ts`). One reading is proposed and checked; nothing
 * is searched.
 */
export function rereadNumberStands(
  format: MrzFormat,
  field: NumberField,
  reread: string,
  changed: readonly number[],
): boolean {
  if (!numberPassesItsDigit(field, reread)) return false;
  return changed.length < 2 || !roundSlipsCouldCancel(format, field.line, reread, changed);
}

/** One field's line as read again, and the positions changed; null when the field is left as read. */
export type FieldReread = { text: string; changed: number[] } | null;

/**
 * Each checked field of the zone (`checkedNumberFields`) read again by `rereadField`, in turn, each
 * seeing the lines as the fields before it left them; the lines and the positions changed by line, or
 * null when no field changed.
 */
export function rereadCheckedFields(
  format: MrzFormat,
  lines: readonly string[],
  rereadField: (lines: readonly string[], field: NumberField) => FieldReread,
): { lines: string[]; changed: number[][] } | null {
  const reread = [...lines];
  const changed: number[][] = lines.map(() => []);
  for (const field of checkedNumberFields(format)) {
    const result = rereadField(reread, field);
    if (!result) continue;
    reread[field.line] = result.text;
    changed[field.line]?.push(...result.changed);
  }
  return changed.some((positions) => positions.length > 0) ? { lines: reread, changed } : null;
}
