import { MRZ_SHAPE, type MrzFormat } from './mrz-formats.ts';

export type { MrzFormat } from './mrz-formats.ts';

/**
 * Reads a machine-readable zone (ICAO Doc 9303) typed or pasted by the end-user, for the details form:
 * checks its shape, characters and check digits, and returns the fields it carries. Pure, no
 * dependencies (it ships in the widget), and deliberately the same rules as the server's reading
 * (`server/domain/mrz.ts`), so what passes here is not refused there.
 */

/** Which check digit failed, named like the details form's fields (`composite` covers the whole zone). */
export type MrzCheckedField =
  | 'document_number'
  | 'date_of_birth'
  | 'expiry_date'
  | 'personal_number'
  | 'composite';

export type MrzProblem =
  /** A character other than A–Z, 0–9 and `<`, on `line` (1-based). */
  | { kind: 'characters'; line: number }
  /** Not as many lines, or not as many characters per line, as any of the expected formats. */
  | { kind: 'shape'; expected: readonly MrzFormat[] }
  /** Right characters in the wrong place on `line`: a digit in a country code, a letter in a date, … */
  | { kind: 'misplaced'; line: number }
  | { kind: 'check_digit'; field: MrzCheckedField }
  /** The check digit holds but the date is not a calendar date (31 February, month 13). */
  | { kind: 'date'; field: 'date_of_birth' | 'expiry_date' };

/** What a valid zone says, in the details form's terms (dates `YYYY-MM-DD`, names as printed). */
export interface MrzFields {
  document_number: string;
  /** Empty when the zone marks the date (partly) unknown with `<`. */
  date_of_birth: string;
  expiry_date: string;
  first_name: string;
  last_name: string;
  /** ISO 3166-1 alpha-3 where ICAO uses its own code for it (`D` is Germany); empty when not given. */
  nationality: string;
}

export type MrzReading =
  | { ok: true; format: MrzFormat; text: string; fields: MrzFields }
  | { ok: false; problem: MrzProblem };

/**
 * Upper case, no blanks inside lines, lines joined by `\n` without empty ones: what OCR, copy-paste and
 * phone keyboards produce becomes the zone as printed.
 *
 * @example normaliseMrz(' p<uto eriksson…\r\n') // 'P<UTOERIKSSON…'
 */
export function normaliseMrz(text: string): string {
  return text
    .toUpperCase()
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/[ \t\u00a0]/g, ''))
    .filter((line) => line.length > 0)
    .join('\n');
}

/** Value of one MRZ character: digits as is, A–Z from 10, the filler `<` as 0. */
function charValue(char: string): number {
  const code = char.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  return 0;
}

/**
 * The Doc 9303 check digit of `chars`: values weighted 7, 3, 1 repeating, summed, modulo 10.
 *
 * @example checkDigit('L898902C3') // 6
 */
export function checkDigit(chars: string): number {
  let sum = 0;
  for (let i = 0; i < chars.length; i++) sum += charValue(chars[i] as string) * ([7, 3, 1][i % 3] as number);
  return sum % 10;
}

/** Whether `digit` (a digit, nothing else) is the check digit of `chars`. */
function checks(chars: string, digit: string | undefined): boolean {
  return digit !== undefined && /^[0-9]$/.test(digit) && Number(digit) === checkDigit(chars);
}

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31 April over to 1 May: only a real calendar date survives the round trip.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return date.toISOString().slice(0, 10);
}

/**
 * A `YYMMDD` date resolved to `YYYY-MM-DD`: `''` when the zone marks part of it unknown (`<`), null when it
 * is no date at all (month 13, 31 February). Birth dates lie in the past (`YY` is 20YY unless that is
 * after today); expiry dates up to 50 years ahead. The same rules as the server.
 */
function resolveDate(yymmdd: string, kind: 'birth' | 'expiry', now: Date): string | null {
  const out = (value: string, max: number) =>
    value !== '<<' && (Number.parseInt(value, 10) < 1 || Number.parseInt(value, 10) > max);
  if (out(yymmdd.slice(2, 4), 12) || out(yymmdd.slice(4, 6), 31)) return null;
  if (!/^\d{6}$/.test(yymmdd)) return '';
  const [yy, month, day] = [0, 2, 4].map((at) => Number(yymmdd.slice(at, at + 2))) as [
    number,
    number,
    number,
  ];
  if (kind === 'expiry')
    return isoDate(2000 + yy > now.getUTCFullYear() + 50 ? 1900 + yy : 2000 + yy, month, day);
  const recent = isoDate(2000 + yy, month, day);
  return recent !== null && recent <= now.toISOString().slice(0, 10)
    ? recent
    : isoDate(1900 + yy, month, day);
}

/** `ERIKSSON<<ANNA<MARIA<<<` → last name `ERIKSSON`, first name `ANNA MARIA`. */
function names(zone: string): { first_name: string; last_name: string } {
  const words = (s: string) => s.replace(/</g, ' ').trim().replace(/ +/g, ' ');
  const split = zone.indexOf('<<');
  return split === -1
    ? { last_name: words(zone), first_name: '' }
    : { last_name: words(zone.slice(0, split)), first_name: words(zone.slice(split + 2)) };
}

/**
 * A document number and whether its check digit holds. Numbers longer than 9 characters (TD1, TD2) put
 * `<` in the check digit's place and continue in the optional data, which then ends with the check
 * digit; issuers differ on whether that `<` counts in the check, so either way is taken (as the server).
 */
function documentNumber(number: string, digit: string, optional: string): { value: string; valid: boolean } {
  if (digit !== '<' || !optional) return { value: number, valid: checks(number, digit) };
  const filler = optional.indexOf('<');
  const tail = optional.slice(0, filler - 1);
  const embedded = optional.charAt(filler - 1);
  return {
    value: number + tail,
    valid: checks(`${number}<${tail}`, embedded) || checks(number + tail, embedded),
  };
}

/** ICAO 9303 codes that are not ISO 3166-1 alpha-3 (Germany's `D`), mapped; fillers dropped. */
function nationalityOf(code: string): string {
  const bare = code.replace(/</g, '');
  return bare === 'D' ? 'DEU' : bare;
}

/** Where the fields are, per format (Doc 9303 part 4 for TD3, 5 for TD1, 6 for TD2); `line` is 0-based. */
interface Layout {
  code: [line: number, at: number];
  issuer: [line: number, at: number];
  number: [line: number, at: number];
  nationality: [line: number, at: number];
  /** Birth date; sex follows its check digit, then the expiry date. */
  birth: [line: number, at: number];
  names: [line: number, at: number];
  /** Optional data a long document number continues in. */
  optional: [line: number, from: number, to: number] | null;
  /** The parts the composite check digit covers (on the dates' line, or line 0 then 1 for TD1). */
  composite: [line: number, from: number, to: number][];
}

const LAYOUT: Record<MrzFormat, Layout> = {
  TD1: {
    code: [0, 0],
    issuer: [0, 2],
    number: [0, 5],
    nationality: [1, 15],
    birth: [1, 0],
    names: [2, 0],
    optional: [0, 15, 30],
    composite: [
      [0, 5, 30],
      [1, 0, 7],
      [1, 8, 15],
      [1, 18, 29],
    ],
  },
  TD2: {
    code: [0, 0],
    issuer: [0, 2],
    number: [1, 0],
    nationality: [1, 10],
    birth: [1, 13],
    names: [0, 5],
    optional: [1, 28, 35],
    composite: [
      [1, 0, 10],
      [1, 13, 20],
      [1, 21, 35],
    ],
  },
  TD3: {
    code: [0, 0],
    issuer: [0, 2],
    number: [1, 0],
    nationality: [1, 10],
    birth: [1, 13],
    names: [0, 5],
    optional: null,
    composite: [
      [1, 0, 10],
      [1, 13, 20],
      [1, 21, 43],
    ],
  },
};

/**
 * Checks `text` as one of `formats` and reads its fields. Problems come in the order an end-user fixes
 * them: characters, shape, characters out of place, then each check digit along the zone, then dates.
 *
 * @example
 *   readMrz('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10', { formats: ['TD3'] })
 *   // { ok: true, format: 'TD3', fields: { document_number: 'L898902C3', date_of_birth: '1974-08-12', … } }
 */
export function readMrz(text: string, options: { formats: readonly MrzFormat[]; now?: Date }): MrzReading {
  const now = options.now ?? new Date();
  const normalised = normaliseMrz(text);
  const lines = normalised.split('\n');
  const badLine = lines.findIndex((line) => /[^A-Z0-9<]/.test(line));
  if (badLine !== -1) return { ok: false, problem: { kind: 'characters', line: badLine + 1 } };
  const format = options.formats.find(
    (f) => lines.length === MRZ_SHAPE[f].lines && lines.every((line) => line.length === MRZ_SHAPE[f].length),
  );
  if (!format) return { ok: false, problem: { kind: 'shape', expected: options.formats } };
  const layout = LAYOUT[format];
  const at = ([line, from]: [number, number], length: number) =>
    (lines[line] as string).slice(from, from + length);

  // Characters that cannot be where they are: the document code (P… for passports; A, C or I for
  // cards), country codes of letters, dates of digits, sex M, F, X or unspecified.
  const [birthLine, birthAt] = layout.birth;
  const code = at(layout.code, 2);
  const codeOk = format === 'TD3' ? /^P[A-Z<]$/.test(code) : /^[ACI][A-UW-Z<]$/.test(code);
  const misplaced: [number, boolean][] = [
    [layout.code[0], codeOk],
    [layout.issuer[0], /^[A-Z<]{3}$/.test(at(layout.issuer, 3))],
    [layout.nationality[0], /^[A-Z<]{3}$/.test(at(layout.nationality, 3))],
    [birthLine, /^[0-9<]{6}.[MFX<][0-9<]{6}$/.test(at(layout.birth, 14))],
  ];
  const wrong = misplaced.find(([, ok]) => !ok);
  if (wrong) return { ok: false, problem: { kind: 'misplaced', line: wrong[0] + 1 } };

  const fail = (field: MrzCheckedField): MrzReading => ({
    ok: false,
    problem: { kind: 'check_digit', field },
  });
  const numberLine = lines[layout.number[0]] as string;
  const numberAt = layout.number[1];
  const optional = layout.optional
    ? (lines[layout.optional[0]] as string).slice(layout.optional[1], layout.optional[2])
    : '';
  const number = documentNumber(
    numberLine.slice(numberAt, numberAt + 9),
    numberLine[numberAt + 9] as string,
    optional,
  );
  if (!number.valid) return fail('document_number');
  const datesLine = lines[birthLine] as string;
  const birth = datesLine.slice(birthAt, birthAt + 6);
  if (!checks(birth, datesLine[birthAt + 6])) return fail('date_of_birth');
  const expiry = datesLine.slice(birthAt + 8, birthAt + 14);
  if (!checks(expiry, datesLine[birthAt + 14])) return fail('expiry_date');
  if (format === 'TD3') {
    // An empty personal number may have `<` or 0 as its check digit (Doc 9303 part 4).
    const personal = datesLine.slice(28, 42);
    const digit = datesLine[42];
    if (/^<+$/.test(personal) ? digit !== '<' && digit !== '0' : !checks(personal, digit)) {
      return fail('personal_number');
    }
  }
  const composite = layout.composite
    .map(([line, from, to]) => (lines[line] as string).slice(from, to))
    .join('');
  if (!checks(composite, datesLine[MRZ_SHAPE[format].length - 1])) return fail('composite');

  const date_of_birth = resolveDate(birth, 'birth', now);
  if (date_of_birth === null) return { ok: false, problem: { kind: 'date', field: 'date_of_birth' } };
  const expiry_date = resolveDate(expiry, 'expiry', now);
  if (expiry_date === null) return { ok: false, problem: { kind: 'date', field: 'expiry_date' } };

  return {
    ok: true,
    format,
    text: normalised,
    fields: {
      document_number: number.value.replace(/</g, ''),
      date_of_birth,
      expiry_date,
      ...names((lines[layout.names[0]] as string).slice(layout.names[1])),
      nationality: nationalityOf(at(layout.nationality, 3)),
    },
  };
}
