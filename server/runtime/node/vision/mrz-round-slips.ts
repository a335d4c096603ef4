/**
 * Whether look-alike round glyphs (`0`, `O`, `D`, `Q`) read short of sure in one zone line could be
 * misreads that the check digits do not catch.
 *
 * A check digit catches any one such slip (ICAO 9303 weights 7, 3, 1 are units mod 10, and the glyphs'
 * values 0, 24, 13, 26 differ by 2, 11, 13, 24 or 26, never a multiple of 10). Two or more slips can
 * cancel: `0`→`O` at weights 7 and 3 adds 24 × 10. Whether they can depends on where they stand, so
 * instead of doubting every loose round glyph once there are two, this asks the question itself: is there
 * any set of other round glyphs at those positions that every check digit covering them would still
 * accept? If not, the true characters can only be the ones read (a slip among them would fail a digit
 * the zone is only read with), and the read stands on the same footing as a single loose round glyph.
 *
 * Nothing is corrected here: the text read is kept or left uncertain, never changed to pass a digit.
 */
import type { MrzFormat } from '../../../domain/mrz.ts';

/** A check digit: the zone positions it covers, in the order they are weighed, and where it stands. */
interface CheckDigit {
  covers: readonly (readonly [line: number, position: number])[];
  at: readonly [line: number, position: number];
}

const span = (line: number, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => [line, from + k] as const);

/** ICAO 9303 parts 4–6: each format's check digits (field digits, then the composite). */
const CHECK_DIGITS: Readonly<Record<MrzFormat, readonly CheckDigit[]>> = {
  TD1: [
    { covers: span(0, 5, 13), at: [0, 14] },
    { covers: span(1, 0, 5), at: [1, 6] },
    { covers: span(1, 8, 13), at: [1, 14] },
    { covers: [...span(0, 5, 29), ...span(1, 0, 6), ...span(1, 8, 14), ...span(1, 18, 28)], at: [1, 29] },
  ],
  TD2: [
    { covers: span(1, 0, 8), at: [1, 9] },
    { covers: span(1, 13, 18), at: [1, 19] },
    { covers: span(1, 21, 26), at: [1, 27] },
    { covers: [...span(1, 0, 9), ...span(1, 13, 19), ...span(1, 21, 34)], at: [1, 35] },
  ],
  TD3: [
    { covers: span(1, 0, 8), at: [1, 9] },
    { covers: span(1, 13, 18), at: [1, 19] },
    { covers: span(1, 21, 26), at: [1, 27] },
    { covers: span(1, 28, 41), at: [1, 42] },
    { covers: [...span(1, 0, 9), ...span(1, 13, 19), ...span(1, 21, 42)], at: [1, 43] },
  ],
};

export const ROUND_GLYPHS = ['0', 'O', 'D', 'Q'] as const;
const ROUND: ReadonlySet<string> = new Set(ROUND_GLYPHS);

/** Whether `character` is one of the {@link ROUND_GLYPHS}. */
export function isRoundGlyph(character: string): boolean {
  return ROUND.has(character);
}
const WEIGHTS = [7, 3, 1] as const;

/** A character's value under ICAO 9303's check digit: digits as themselves, A–Z 10–35, `<` 0. */
export function checkValue(character: string): number {
  if (character >= '0' && character <= '9') return character.charCodeAt(0) - 48;
  if (character >= 'A' && character <= 'Z') return character.charCodeAt(0) - 55;
  return 0;
}

/** ICAO 9303's check digit of `text`: its characters' values weighted 7, 3, 1 in turn, modulo 10. */
export function checkDigitOf(text: string): string {
  let sum = 0;
  for (const [i, character] of [...text].entries()) sum += checkValue(character) * (WEIGHTS[i % 3] as number);
  return String(sum % 10);
}

/**
 * Where each check digit of the zone that fails stands (`[line, position]`), in ICAO 9303's order: the
 * fields' digits, then the composite. A digit printed as a filler stands for 0 (an empty optional field).
 *
 * @example
 * failingCheckDigits('TD2', ['IRUTO…', '…2903046984O5O33']) // [[1, 35]]: only the composite fails
 */
export function failingCheckDigits(format: MrzFormat, lines: readonly string[]): [number, number][] {
  return CHECK_DIGITS[format]
    .filter(({ covers, at: [line, position] }) => {
      const covered = covers.map(([l, p]) => lines[l]?.[p] ?? '<').join('');
      const printed = lines[line]?.[position] ?? '';
      return checkDigitOf(covered) !== (printed === '<' ? '0' : printed);
    })
    .map(({ at: [line, position] }) => [line, position]);
}

/** Whether position `position` of line `line` is covered by the zone's composite check digit. */
export function coveredByComposite(format: MrzFormat, line: number, position: number): boolean {
  const composite = CHECK_DIGITS[format].at(-1);
  return composite?.covers.some(([l, p]) => l === line && p === position) ?? false;
}

/** Where the zone's composite check digit stands (`[line, position]`). */
export function compositeDigitAt(format: MrzFormat): readonly [number, number] {
  return (CHECK_DIGITS[format].at(-1) as CheckDigit).at;
}

/**
 * True when some other choice of round glyphs at `positions` of `line` (at least one changed) leaves the
 * sum of every check digit covering a changed position unchanged mod 10: slips there could pass unseen.
 * A position no check digit covers could always slip unseen.
 *
 * @example
 *   roundSlipsCouldCancel('TD3', 1, 'A0000000<0…', [1, 2]) // weights 3 and 1: 24·3 + 24·1 ≠ 0 mod 10, …
 */
export function roundSlipsCouldCancel(
  format: MrzFormat,
  line: number,
  text: string,
  positions: readonly number[],
): boolean {
  const checks = CHECK_DIGITS[format];
  // Per position: the weight it carries in each check digit (0 when the check does not cover it).
  // A check digit printed as a filler (an empty optional field, a TD1 number run on into the optional
  // data) checks nothing here: it constrains no slip.
  const present = checks.filter(({ at: [l, p] }) => l !== line || text[p] !== '<');
  const weights = positions.map((position) =>
    present.map((check) => {
      const index = check.covers.findIndex(([l, p]) => l === line && p === position);
      return index < 0 ? 0 : WEIGHTS[index % 3]!;
    }),
  );
  if (weights.some((perCheck) => perCheck.every((weight) => weight === 0))) return true;
  // Each position's possible changes of value (to another round glyph), plus "unchanged" (0).
  const deltas = positions.map((position) => {
    const read = text[position] ?? '';
    return [
      0,
      ...ROUND_GLYPHS.filter((glyph) => glyph !== read).map((glyph) => checkValue(glyph) - checkValue(read)),
    ];
  });
  const sums = new Array<number>(present.length).fill(0);
  const search = (k: number, changed: boolean): boolean => {
    if (k === positions.length) return changed && sums.every((sum) => sum % 10 === 0);
    for (const delta of deltas[k]!) {
      for (const [c, weight] of weights[k]!.entries()) sums[c] = sums[c]! + delta * weight;
      const found = search(k + 1, changed || delta !== 0);
      for (const [c, weight] of weights[k]!.entries()) sums[c] = sums[c]! - delta * weight;
      if (found) return true;
    }
    return false;
  };
  return search(0, false);
}
