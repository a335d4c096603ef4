import { ICAO_EXPANSIONS, latinTokens } from '../latin-letters.ts';
import { parseCalendarDate } from './calendar.ts';
import type { ConfirmedDetails, ParsedMrz } from './review-input.ts';

/** The details compared against the MRZ. */
export type ComparedField = 'last_name' | 'first_name' | 'date_of_birth' | 'document_number' | 'expiry_date';

/**
 * The fields on which the MRZ clearly contradicts what the end-user confirmed. A contradiction rejects
 * the session, so every comparison is tolerant of how an MRZ legitimately differs from typed text
 * (upper case, transliteration, truncation, omitted middle names) and only reports a real conflict.
 *
 * @example
 * contradictedFields(
 *   { first_name: 'Jörg', last_name: 'Müller', date_of_birth: '1990-04-01', document_number: 'C01X00T47', expiry_date: '2031-05-01' },
 *   { first_name: 'JOERG', last_name: 'MUELLER', date_of_birth: '900401', document_number: 'C01X00T47', expiry_date: '310501', check_digits_valid: true },
 * ) // []
 */
export function contradictedFields(details: ConfirmedDetails, mrz: ParsedMrz): ComparedField[] {
  const agrees: Record<ComparedField, boolean> = {
    last_name: namesAgree(details.last_name, mrz.last_name),
    first_name: namesAgree(details.first_name, mrz.first_name),
    date_of_birth: datesAgree(details.date_of_birth, mrz.date_of_birth),
    document_number: documentNumbersAgree(details.document_number, mrz.document_number),
    expiry_date: datesAgree(details.expiry_date, mrz.expiry_date),
  };
  return (Object.keys(agrees) as ComparedField[]).filter((field) => !agrees[field]);
}

function namesAgree(typed: string, printed: string): boolean {
  const printedTokens = latinTokens(printed, {});
  return [ICAO_EXPANSIONS, {}].some((expansions) =>
    tokensAgree(latinTokens(typed, expansions), printedTokens),
  );
}

/**
 * Two names agree when one contains all words of the other (a middle name left out) or when the letters
 * of one start the other (the MRZ truncates long names, sometimes inside a word).
 */
function tokensAgree(a: readonly string[], b: readonly string[]): boolean {
  const joinedA = a.join('');
  const joinedB = b.join('');
  if (joinedA.startsWith(joinedB) || joinedB.startsWith(joinedA)) return true;
  return a.every((token) => b.includes(token)) || b.every((token) => a.includes(token));
}

function documentNumbersAgree(typed: string, printed: string): boolean {
  return alphanumeric(typed) === alphanumeric(printed);
}

/** Spaces, dashes and MRZ fillers are layout, not part of the number. */
function alphanumeric(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * A typed `YYYY-MM-DD` against an MRZ date, `YYMMDD` as printed or `YYYY-MM-DD`. A printed date that is
 * not a date (some ID cards fill the expiry with `<`) cannot contradict anything.
 */
function datesAgree(typed: string, printed: string): boolean {
  const printedText = printed.trim();
  if (/^\d{6}$/.test(printedText)) return typed.replaceAll('-', '').slice(2) === printedText;
  if (parseCalendarDate(printedText) === null) return true;
  return typed === printedText;
}
