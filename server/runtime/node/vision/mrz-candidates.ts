import { type MrzFormat, MrzFormatError, parseMrz } from '../../../domain/mrz.ts';
import { MRZ_SHAPES } from './mrz-zone.ts';

/**
 * What each position of a zone may hold (ICAO 9303 part 4–6): `A` letters (and filler), `N` digits (and
 * filler, for an empty check digit), `X` either.
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
 * The fields a check digit protects, as [line, start, end) ranges including the digit, and the names
 * `parseMrz` reports in `invalidFields` when they fail.
 */
interface CheckedField {
  ranges: readonly (readonly [number, number, number])[];
  names: readonly string[];
}
const DOCUMENT_NUMBER = ['documentNumber', 'documentNumberCheckDigit'];
const BIRTH = ['dateOfBirth', 'dateOfBirthCheckDigit'];
const EXPIRY = ['expiryDate', 'expiryDateCheckDigit'];
const CHECKED_FIELDS: Readonly<Record<MrzFormat, readonly CheckedField[]>> = {
  TD1: [
    { ranges: [[0, 5, 15]], names: DOCUMENT_NUMBER },
    { ranges: [[1, 0, 7]], names: BIRTH },
    { ranges: [[1, 8, 15]], names: EXPIRY },
    {
      ranges: [
        [0, 15, 30],
        [1, 18, 30],
      ],
      names: ['compositeCheckDigit'],
    },
  ],
  TD2: [
    { ranges: [[1, 0, 10]], names: DOCUMENT_NUMBER },
    { ranges: [[1, 13, 20]], names: BIRTH },
    { ranges: [[1, 21, 28]], names: EXPIRY },
    { ranges: [[1, 28, 36]], names: ['compositeCheckDigit'] },
  ],
  TD3: [
    { ranges: [[1, 0, 10]], names: DOCUMENT_NUMBER },
    { ranges: [[1, 13, 20]], names: BIRTH },
    { ranges: [[1, 21, 28]], names: EXPIRY },
    { ranges: [[1, 28, 43]], names: ['personalNumber', 'personalNumberCheckDigit'] },
    { ranges: [[1, 43, 44]], names: ['compositeCheckDigit'] },
  ],
};

/** OCR-B shapes OCR confuses between letters and digits, both ways. */
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};
const AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '6': 'G',
  '8': 'B',
};

/** At most this many readings of one field are tried against its check digit. */
const MAX_TRIALS = 256;

/**
 * The readings of one position worth trying, most likely first: what the OCR saw (its alternatives in
 * order), each as it must be read where only letters or only digits are allowed, and in an `X` position
 * also the letter/digit it is confused with. Nothing outside those confusions is ever proposed.
 */
function readingsOf(seen: readonly string[], kind: string): string[] {
  const out: string[] = [];
  const add = (c: string | undefined) => {
    if (c !== undefined && !out.includes(c)) out.push(c);
  };
  for (const c of seen) {
    if (c === '<') add(c);
    else if (kind === 'N') add(/\d/.test(c) ? c : (AS_DIGIT[c] ?? c));
    else if (kind === 'A') add(/[A-Z]/.test(c) ? c : (AS_LETTER[c] ?? c));
    else {
      add(c);
      add(AS_DIGIT[c] ?? AS_LETTER[c]);
    }
  }
  return out.length > 0 ? out : ['?'];
}

/** Combinations of per-position choices, fewest departures from the first choice first. */
function* combinations(choices: readonly (readonly string[])[], limit: number): Generator<number[]> {
  const varying = choices.map((c, i) => (c.length > 1 ? i : -1)).filter((i) => i >= 0);
  let produced = 0;
  for (let changes = 0; changes <= varying.length; changes++) {
    const pick = (start: number, left: number, current: number[]): Generator<number[]> =>
      (function* () {
        if (left === 0) {
          yield current;
          return;
        }
        for (let v = start; v < varying.length; v++) {
          const position = varying[v] as number;
          for (let alt = 1; alt < (choices[position] as readonly string[]).length; alt++) {
            const next = [...current];
            next[position] = alt;
            yield* pick(v + 1, left - 1, next);
          }
        }
      })();
    for (const combination of pick(
      0,
      changes,
      choices.map(() => 0),
    )) {
      if (produced++ >= limit) return;
      yield combination;
    }
  }
}

function invalidNames(lines: readonly string[]): Set<string> | null {
  try {
    return new Set(parseMrz(lines.join('\n')).invalidFields);
  } catch (error) {
    if (error instanceof MrzFormatError) return null;
    throw error;
  }
}

/**
 * Picks the zone's text from what the OCR saw in each position (`seen[line][position]`, best reading
 * first), as MRZ readers do: where a field's check digit fails, the letter/digit confusions the OCR is
 * prone to (0/O, 1/I, 2/Z, 5/S, 6/G, 8/B, and its own alternatives) are tried until `parseMrz` accepts
 * the field; positions that allow only digits or only letters are read as such. Never invents a
 * character: every choice is one the OCR saw or its look-alike. A field no reading fixes keeps the first.
 *
 * @example
 * chooseMrzLines('TD3', seen) // ['P<UTOERIKSSON<<ANNA<MARIA<<<…', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']
 */
export function chooseMrzLines(
  format: MrzFormat,
  seen: readonly (readonly (readonly string[])[])[],
): string[] {
  const layout = LAYOUTS[format];
  const choices = seen.map((line, l) => line.map((cell, p) => readingsOf(cell, layout[l]?.[p] ?? 'X')));
  const picked = choices.map((line) => line.map((cell) => cell[0] as string));
  const text = () => picked.map((line) => line.join(''));
  if (choices.length !== MRZ_SHAPES[format].lines) return text();
  for (const field of CHECKED_FIELDS[format]) {
    const failing = (names: Set<string> | null) => names === null || field.names.some((n) => names.has(n));
    if (!failing(invalidNames(text()))) continue;
    const positions = field.ranges.flatMap(([line, start, end]) =>
      Array.from({ length: end - start }, (_, i) => [line, start + i] as const),
    );
    const options = positions.map(([line, p]) => choices[line]?.[p] ?? ['?']);
    const original = positions.map(([line, p]) => picked[line]?.[p] as string);
    const place = (values: readonly string[]) => {
      for (const [i, [line, p]] of positions.entries()) (picked[line] as string[])[p] = values[i] as string;
    };
    let fixed = false;
    for (const combination of combinations(options, MAX_TRIALS)) {
      place(combination.map((alternative, i) => (options[i] as readonly string[])[alternative] as string));
      if (!failing(invalidNames(text()))) {
        fixed = true;
        break;
      }
    }
    if (!fixed) place(original);
  }
  return text();
}

/**
 * A line as OCR'd whole (the fallback when a line could not be laid on its character grid): spaces
 * removed, and the length made `length` where that is clearly what was meant, i.e. only a filler run
 * (`<<<…`, often miscounted) grows or shrinks, by at most two.
 *
 * @example
 * fitLineLength('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<', 44) // one '<' fewer
 */
export function fitLineLength(raw: string, length: number): string {
  const line = raw.replace(/\s+/g, '').toUpperCase();
  const difference = length - line.length;
  if (difference === 0 || Math.abs(difference) > 2) return line;
  let best: { start: number; size: number } | null = null;
  for (const match of line.matchAll(/<{3,}/g)) {
    if (!best || match[0].length >= best.size) best = { start: match.index, size: match[0].length };
  }
  if (!best) return line;
  const run = '<'.repeat(best.size + difference);
  return line.slice(0, best.start) + run + line.slice(best.start + best.size);
}
