/**
 * The document number's round glyphs as the zone's own print reads them, when the number fails its
 * check digit; and likewise a passport's personal number, which has a check digit of its own.
 *
 * At the 6–7 px capitals of a zone about 300 px wide, the glyph classifier reads OCR-B's `0` as `O` (or
 * `D`) and is sure of it: on 60 generated photos at that size (seed 3, the small-print tuning set), 13
 * of the document numbers' `0`s were read as a round letter, 6 of them at a share of 0.99 or more. Nothing
 * doubts such a reading, and the number fails its check digit. The zone prints its `0`s surely elsewhere
 * (the dates, where only digits may stand) and its `O`s in the names, at the same size and blur: those
 * cells are this document's own references, a reader independent of the classifier's training
 * (`mrz-zone-print.ts`).
 *
 * So when the number's check digit fails, its round glyphs are read by the print ({@link printReading},
 * with every round glyph the zone prints surely as a candidate). The cells of the number itself are left out of the references:
 * two `0`s of one number read `O` surely would otherwise vouch for each other. Then the check digit
 * judges the result, as it judges every reading: one round glyph read wrongly by the print fails it (the
 * round glyphs' values differ by 2, 11, 13, 24 or 26, never a multiple of 10), and two or more changed
 * stand only when no other choice of round glyphs there would pass too (`mrz-round-slips.ts`). Nothing is
 * searched: the print proposes one reading, and the digit accepts it or the number stays unread.
 *
 * The personal number of a passport (TD3) is read the same way: it too may print letters and digits
 * under a check digit of its own, and at 300 px its `0`s are read `O` as the number's are (seed 8 at
 * 300 px, each page's first look: 8 of the 18 `0`s of TD3 second lines read as another glyph stood in the
 * personal number, 10 in the document number). Its references leave out its own cells.
 *
 * Only then, and only those fields: a field that passes its digit is left as read, and so are the names
 * (no check digit would judge the print there) and the other optional data (a card's, judged only by the
 * composite digit with everything else).
 */
import type { MrzFormat } from '../../../domain/mrz.ts';
import {
  type FieldReread,
  type NumberField,
  numberOpenToReread,
  numberRead,
  rereadCheckedFields,
  rereadNumberStands,
} from './mrz-document-number.ts';
import { ROUND_GLYPHS } from './mrz-round-slips.ts';
import { printReading, zoneReferences } from './mrz-zone-print.ts';

const ROUND: ReadonlySet<string> = new Set(ROUND_GLYPHS);

/**
 * The fewest sure cells of a glyph for the print to read the number's cell as it: two, where
 * {@link printReading} asks three of a doubt it settles on its own. A zone 300 px wide prints two or three
 * `0`s surely outside the number, and here the check digit judges the reading whatever it is. Chosen on
 * the tuning seed (seed 3 at 300 px): with three the rule read 2 of its numbers, with two 6, none wrongly.
 */
export const MIN_NUMBER_REFERENCE_CELLS = 2;

/**
 * The zone's lines with the round glyphs of each checked field that fails its check digit (the document
 * number, and a passport's personal number: `checkedNumberFields`) as the zone's print reads them, and
 * the positions so changed by line; null when no field changed. A field is left as read when it passes
 * its check digit, when anything else in it (or its check digit) is in doubt (`mrz-document-number.ts`),
 * when the print changes nothing, or when the result does not stand. `cells` are the zone's cells as read
 * (each with its centred patch); `isReference` says which of them the print may take as references of the
 * character read there.
 *
 * @example
 * numberByZonePrint('TD3', ['P<MEX…', '61696O97<6MEX…'], [[], []], cells)
 * // { lines: ['P<MEX…', '61696097<6MEX…'], changed: [[], [5]] }: the cell is nearer the zone's 0s than its Os
 */
export function numberByZonePrint<Cell extends { patch: Float32Array }>(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  cells: readonly (readonly Cell[])[],
  isReference: (cell: Cell) => boolean,
): { lines: string[]; changed: number[][] } | null {
  return rereadCheckedFields(format, lines, (current, field) =>
    fieldByZonePrint(format, current, uncertain, cells, isReference, field),
  );
}

/** One field's line as the print reads its round glyphs, when the field is open to it and the result stands. */
function fieldByZonePrint<Cell extends { patch: Float32Array }>(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  cells: readonly (readonly Cell[])[],
  isReference: (cell: Cell) => boolean,
  numberField: NumberField,
): FieldReread {
  if (numberOpenToReread(format, lines, uncertain, numberField) !== 'fails_digit') return null;
  const { field, text, number } = numberRead(format, lines, numberField);
  const round = [...number].flatMap((character, i) => (ROUND.has(character) ? [field.from + i] : []));
  const inField = (line: number, k: number) => line === field.line && k >= field.from && k <= field.to;
  const references = zoneReferences(
    lines.flatMap((lineText, line) =>
      [...lineText].flatMap((character, k) => {
        const cell = cells[line]?.[k];
        return cell && isReference(cell) && !inField(line, k) ? [{ character, patch: cell.patch }] : [];
      }),
    ),
  );
  let reread = text;
  const changed: number[] = [];
  for (const k of round) {
    const cell = cells[field.line]?.[k];
    const read = text[k] as string;
    if (!cell) continue;
    const candidates = [read, ...ROUND_GLYPHS.filter((glyph) => glyph !== read && references.has(glyph))];
    const byPrint = printReading(cell.patch, candidates, references, MIN_NUMBER_REFERENCE_CELLS);
    if (byPrint === null || byPrint === read) continue;
    reread = reread.slice(0, k) + byPrint + reread.slice(k + 1);
    changed.push(k);
  }
  if (changed.length === 0 || !rereadNumberStands(format, field, reread, changed)) return null;
  return { text: reread, changed };
}
