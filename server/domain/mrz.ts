import { type Details, type FieldName, parse, states } from 'mrz';
import type { ParsedMrz as ReviewMrz } from './review/review-input.ts';

/** The ICAO 9303 machine-readable zones we read (other formats the `mrz` package knows are refused). */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export type MrzDocumentType = 'passport' | 'id_card' | 'other';

export interface ParsedMrz {
  /** Every check digit matches and every field is well-formed (dates, country codes, sex). */
  valid: boolean;
  format: MrzFormat;
  /** The full number (TD1 long numbers continue in the optional data); null when its check digit fails. */
  documentNumber: string | null;
  /** Given names separated by single spaces, upper case as printed, e.g. `ANNA MARIA`. */
  firstName: string;
  lastName: string;
  /** `YYYY-MM-DD`; null when unreadable or partly unknown (`<<` for day or month). */
  dateOfBirth: string | null;
  expiryDate: string | null;
  /** ICAO 9303 code: ISO alpha-3 except a few, notably `D` for Germany and `UTO` for specimens. */
  nationality: string | null;
  issuingCountry: string | null;
  documentType: MrzDocumentType;
  /** The raw document code, e.g. `P`, `PO`, `ID`, `I`. */
  documentCode: string;
  /** The name zone is completely filled, so names may have been cut to fit. */
  namesTruncated: boolean;
  /** Fields that failed, named like this object's fields (`dateOfBirthCheckDigit`, `issuingCountry`). */
  invalidFields: string[];
  /**
   * Fields outside the names with a character the reader was not sure of (see `MrzParseOptions.uncertain`),
   * named like `invalidFields`; `filler` for a position between fields. Any makes the zone not `valid`:
   * a check digit that verifies over a guessed character is no evidence.
   */
  uncertainFields: string[];
  /**
   * A character of the names was not read confidently. The names have no check digit, so nothing else
   * can vouch for them: the person confirms or corrects them before they count.
   */
  namesUncertain: boolean;
}

export interface MrzParseOptions {
  /** The moment two-digit years are resolved against (default: now). */
  now?: Date;
  /**
   * Per line, the 0-based positions whose character the reader (OCR) was not confident of. Typed and
   * pasted zones have none.
   */
  uncertain?: readonly (readonly number[])[];
}

/** The input is not a TD1, TD2 or TD3 MRZ at all (wrong line count or length, bad characters). */
export class MrzFormatError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MrzFormatError';
  }
}

const FIELD_NAMES: Partial<Record<FieldName, string>> = {
  birthDate: 'dateOfBirth',
  birthDateCheckDigit: 'dateOfBirthCheckDigit',
  expirationDate: 'expiryDate',
  expirationDateCheckDigit: 'expiryDateCheckDigit',
  issuingState: 'issuingCountry',
};

/** ICAO's fictional "Utopia", used by every specimen in Doc 9303; the `mrz` package does not list it. */
const SPECIMEN_STATE = 'UTO';

/**
 * Whether a state field as printed (three characters, a shorter code padded with `<`: `D<<`) is a code
 * ICAO 9303 lists for a state or organisation, or the specimens' `UTO`: the one judge of the issuing state
 * and the nationality, which no check digit covers.
 *
 * @example
 * isStateCode('NLD') // true
 * isStateCode('MLD') // false
 * isStateCode('D<<') // true
 */
export function isStateCode(field: string): boolean {
  const code = field.replace(/<+$/, '');
  return code === SPECIMEN_STATE || (/^[A-Z]{1,3}$/.test(code) && Object.hasOwn(states, code));
}

/**
 * ICAO 9303 (8th edition, part 4) allows `X` for an unspecified sex beside `M`, `F` and `<`; the `mrz`
 * package knows only the last three and marks `X` invalid. No check digit covers the sex field, so an
 * `X` there is as valid as `<`.
 */
const UNSPECIFIED_SEX = 'X';

/** How many years ahead an expiry date may lie before `YY` is read as the past century. */
const EXPIRY_YEARS_AHEAD = 50;

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31 April over to 1 May; a real calendar date survives the round trip.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** Birth dates lie in the past: `YY` is 20YY unless that is after today, then 19YY. */
function birthDate(yymmdd: string, now: Date): string | null {
  const [yy, month, day] = [0, 2, 4].map((at) => Number(yymmdd.slice(at, at + 2))) as [
    number,
    number,
    number,
  ];
  const candidate = isoDate(2000 + yy, month, day);
  if (candidate !== null && candidate <= now.toISOString().slice(0, 10)) return candidate;
  return isoDate(1900 + yy, month, day);
}

/** Expiry dates lie within the next ~50 years (or in the past, for an expired document). */
function expiryDate(yymmdd: string, now: Date): string | null {
  const [yy, month, day] = [0, 2, 4].map((at) => Number(yymmdd.slice(at, at + 2))) as [
    number,
    number,
    number,
  ];
  const century = 2000 + yy > now.getUTCFullYear() + EXPIRY_YEARS_AHEAD ? 1900 : 2000;
  return isoDate(century + yy, month, day);
}

function documentTypeOf(code: string): MrzDocumentType {
  if (code.startsWith('P')) return 'passport';
  // Doc 9303 part 5: A, C and I are the official travel document (identity card) codes.
  if (/^[ACI]/.test(code)) return 'id_card';
  return 'other';
}

/**
 * Parses and checks an ICAO 9303 MRZ, lines joined by `\n` (CR LF, surrounding blanks and lower case
 * are tolerated: OCR and copy-paste produce them). Two-digit years are resolved against `now`:
 * birth dates in the past, expiry dates up to 50 years ahead. A parsed MRZ with a wrong check digit
 * is returned with `valid: false`; only text that is not an MRZ at all throws.
 *
 * @throws {MrzFormatError} when the text is not a TD1, TD2 or TD3 MRZ.
 * @example
 * parseMrz('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10')
 * // { valid: true, format: 'TD3', documentNumber: 'L898902C3', firstName: 'ANNA MARIA',
 * //   lastName: 'ERIKSSON', dateOfBirth: '1974-08-12', expiryDate: '2012-04-15', … }
 */
export function parseMrz(text: string, options: MrzParseOptions = {}): ParsedMrz {
  const now = options.now ?? new Date();
  const lines = text
    .toUpperCase()
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  let result: ReturnType<typeof parse>;
  try {
    result = parse(lines);
  } catch (error) {
    throw new MrzFormatError(`Not a machine-readable zone: ${(error as Error).message}`, { cause: error });
  }
  const { format } = result;
  if (format !== 'TD1' && format !== 'TD2' && format !== 'TD3') {
    throw new MrzFormatError(`Unsupported MRZ format ${format}; expected TD1, TD2 or TD3.`);
  }

  const raw = (detail: Details) => lines[detail.line]?.slice(detail.start, detail.end) ?? '';
  const invalidFields: string[] = [];
  const countries: { issuingState: string | null; nationality: string | null } = {
    issuingState: result.fields.issuingState ?? null,
    nationality: result.fields.nationality ?? null,
  };
  for (const detail of result.details) {
    if (detail.valid || detail.field === null) continue;
    if (
      (detail.field === 'issuingState' || detail.field === 'nationality') &&
      raw(detail) === SPECIMEN_STATE
    ) {
      countries[detail.field] = SPECIMEN_STATE;
      continue;
    }
    if (detail.field === 'sex' && raw(detail) === UNSPECIFIED_SEX) continue;
    invalidFields.push(FIELD_NAMES[detail.field] ?? detail.field);
  }

  const fields = result.fields;
  const readDate = (
    value: string | null | undefined,
    resolve: (yymmdd: string, now: Date) => string | null,
  ) => (value && /^\d{6}$/.test(value) ? resolve(value, now) : null);
  const dateOfBirth = readDate(fields.birthDate, birthDate);
  const expiry = readDate(fields.expirationDate, expiryDate);
  // The package checks month ≤ 12 and day ≤ 31 only; 31 February passes it with a correct check digit.
  if (fields.birthDate && /^\d{6}$/.test(fields.birthDate) && dateOfBirth === null)
    invalidFields.push('dateOfBirth');
  if (fields.expirationDate && /^\d{6}$/.test(fields.expirationDate) && expiry === null) {
    invalidFields.push('expiryDate');
  }

  const { uncertainFields, namesUncertain } = uncertainties(format, result.details, options.uncertain);
  // Names end where the first (TD2, TD3) or last (TD1) line ends; no trailing filler means cut to fit.
  const nameLine = format === 'TD1' ? lines[2] : lines[0];
  const documentCode = fields.documentCode ?? raw(result.details[0]!).replace(/<+$/, '');
  return {
    valid: invalidFields.length === 0 && uncertainFields.length === 0,
    format,
    documentNumber: result.documentNumber,
    firstName: fields.firstName ?? '',
    lastName: fields.lastName ?? '',
    dateOfBirth,
    expiryDate: expiry,
    nationality: countries.nationality,
    issuingCountry: countries.issuingState,
    documentType: documentTypeOf(documentCode),
    documentCode,
    namesTruncated: nameLine !== undefined && !nameLine.endsWith('<'),
    invalidFields,
    uncertainFields,
    namesUncertain,
  };
}

/**
 * Sorts the reader's uncertain positions: those in the name zone (TD1: the third line; TD2, TD3: the
 * first line after the document code and issuing state) make the names uncertain; any other names the
 * field it falls in.
 */
function uncertainties(
  format: MrzFormat,
  details: readonly Details[],
  uncertain: readonly (readonly number[])[] | undefined,
): { uncertainFields: string[]; namesUncertain: boolean } {
  const uncertainFields: string[] = [];
  let namesUncertain = false;
  for (const [line, positions] of (uncertain ?? []).entries()) {
    for (const position of positions) {
      const inNames = format === 'TD1' ? line === 2 : line === 0 && position >= 5;
      if (inNames) {
        namesUncertain = true;
        continue;
      }
      const detail = details.find((d) => d.line === line && position >= d.start && position < d.end);
      const name = detail?.field ? (FIELD_NAMES[detail.field] ?? detail.field) : 'filler';
      if (!uncertainFields.includes(name)) uncertainFields.push(name);
    }
  }
  return { uncertainFields, namesUncertain };
}

/**
 * The parsed MRZ in the shape the automated review compares (`review-input.ts`). A date the MRZ could not
 * resolve becomes `''`, which the review treats as unreadable rather than as a contradiction; so do names
 * read unsure.
 *
 * @example
 * toReviewMrz(parseMrz(specimen)).check_digits_valid // true
 */
export function toReviewMrz(mrz: ParsedMrz): ReviewMrz {
  // Names read unsure are no evidence: left empty, they can neither confirm nor contradict what the
  // end-user typed (a corrected name must not read as a mismatch).
  const sure = mrz.namesUncertain !== true;
  return {
    first_name: sure ? mrz.firstName : '',
    last_name: sure ? mrz.lastName : '',
    date_of_birth: mrz.dateOfBirth ?? '',
    document_number: mrz.documentNumber ?? '',
    expiry_date: mrz.expiryDate ?? '',
    check_digits_valid: mrz.valid,
  };
}
