import { ICAO_EXPANSIONS, latinTokens } from './latin-letters.ts';
import { type CalendarDate, compareCalendarDates, utcCalendarDate } from './review/calendar.ts';

export interface ProofOfAddressMatch {
  name_found: boolean;
  /** The document's issue date, `YYYY-MM-DD`; null when the text holds no date. */
  issue_date: string | null;
  /** The issue date is not in the future and at most `maxAgeDays` before `now` (UTC calendar days). */
  within_window: boolean;
}

/**
 * Reads a proof of address's OCR text for the person's name and its issue date.
 *
 * Name: both the first given name and the whole last name must appear, within three words of each other
 * (either order, so `ERIKSSON, ANNA` and `Mrs Anna M. Eriksson` both count), ignoring case, accents and
 * punctuation; line breaks are spaces, and a word hyphenated across a line break is joined. Names are
 * tried with ICAO transliterations and with base letters (Müller = MUELLER = MULLER). A last name of
 * several words may also appear run together. Words match whole: an initial is not a first name, and a
 * name the machine-readable zone cut short (only when surname and first name exceed 37 letters) is not
 * found; the review then leaves it to a person.
 *
 * Issue date: dates are read in the formats `12 March 2026`, `12th Mar 2026`, `March 12, 2026` (English
 * month names), `2026-03-12`, `12.03.2026` (dots are always day first) and `12/03/2026` or `12-03-2026`.
 * A slash or dash date is day first when its first number exceeds 12, month first when its second does;
 * when both could be a month, the text's own convention decides (another slash or dash date in it that is
 * unambiguous), else day first, the convention of most issuers. Years have four digits: two-digit years
 * are too easily amounts or reference numbers. A date right after an issue label (`Statement date`,
 * `Invoice date`, `Issued`, `Date of issue`…) is the issue date; otherwise the latest date that is not in
 * the future (due dates usually are), and if every date is in the future the earliest of them.
 *
 * @example
 * matchProofOfAddress('Mrs Anna Eriksson\n12 Main St\nStatement date: 12 March 2026', { first_name: 'ANNA MARIA', last_name: 'ERIKSSON' }, new Date('2026-04-01'), 92)
 * // { name_found: true, issue_date: '2026-03-12', within_window: true }
 */
export function matchProofOfAddress(
  text: string,
  name: { first_name: string; last_name: string },
  now: Date,
  maxAgeDays: number,
): ProofOfAddressMatch {
  const issue = issueDateOf(text, utcCalendarDate(now));
  return {
    name_found: nameFound(text, name),
    issue_date: issue === null ? null : isoOf(issue),
    within_window: issue !== null && isWithinWindow(issue, utcCalendarDate(now), maxAgeDays),
  };
}

// ---- Name ----

/** How many words may stand between the first and the last name (titles, middle names, initials). */
const NAME_GAP_MAX_WORDS = 3;

function nameFound(text: string, name: { first_name: string; last_name: string }): boolean {
  // A word hyphenated across a line break ("Eriks-\nson") is one word; also try without joining, for
  // double-barrelled names that break at their own hyphen.
  const texts = [text, text.replace(/(\p{L})-[ \t]*\r?\n\s*(\p{L})/gu, '$1$2')];
  return [ICAO_EXPANSIONS, {}].some((nameExpansions) => {
    const first = latinTokens(name.first_name, nameExpansions)[0];
    const last = latinTokens(name.last_name, nameExpansions);
    if (first === undefined || last.length === 0) return false;
    return texts.some((candidate) =>
      [ICAO_EXPANSIONS, {}].some((textExpansions) =>
        containsName(latinTokens(candidate, textExpansions), first, last),
      ),
    );
  });
}

function containsName(words: readonly string[], first: string, last: readonly string[]): boolean {
  for (const span of lastNameSpans(words, last)) {
    const before = words.slice(Math.max(0, span.start - NAME_GAP_MAX_WORDS - 1), span.start);
    const after = words.slice(span.end, span.end + NAME_GAP_MAX_WORDS + 1);
    if ([...before, ...after].includes(first)) return true;
  }
  return false;
}

/** Where the last name's words stand, consecutively or run together into one word. */
function* lastNameSpans(words: readonly string[], last: readonly string[]) {
  const joined = last.join('');
  for (let start = 0; start < words.length; start++) {
    if (last.every((part, i) => words[start + i] === part)) {
      yield { start, end: start + last.length };
    } else if (last.length > 1 && words[start] === joined) {
      yield { start, end: start + 1 };
    }
  }
}

// ---- Issue date ----

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const ORDINAL = '(?:st|nd|rd|th)?';

const DAY_MONTH_NAME_YEAR = new RegExp(
  `\\b(\\d{1,2})${ORDINAL}\\.?\\s+(?:of\\s+)?${MONTH_NAME}\\.?,?\\s+(\\d{4})\\b`,
  'giu',
);
const MONTH_NAME_DAY_YEAR = new RegExp(
  `\\b${MONTH_NAME}\\.?\\s+(\\d{1,2})${ORDINAL},?\\s+(\\d{4})\\b`,
  'giu',
);
const YEAR_FIRST = /\b(\d{4})([-/.])(\d{1,2})\2(\d{1,2})\b/gu;
const YEAR_LAST = /\b(\d{1,2})([-/.])(\d{1,2})\2(\d{4})\b/gu;

/** Labels that name the issue date; `due date` and `payment date` deliberately do not match. */
const ISSUE_LABEL =
  /\b(?:date\s+of\s+issue|issue\s+date|date\s+issued|issued(?:\s+on)?|statement\s+date|invoice\s+date|bill(?:ing)?\s+date|print(?:ed)?\s+date|dated)\b/giu;
/** How far after its label an issue date may start (a colon, spaces, a line break). */
const LABEL_REACH_CHARS = 40;

interface FoundDate {
  date: CalendarDate;
  at: number;
}

function issueDateOf(text: string, today: CalendarDate): CalendarDate | null {
  const dates = datesIn(text);
  if (dates.length === 0) return null;
  for (const label of text.matchAll(ISSUE_LABEL)) {
    const labelEnd = label.index + label[0].length;
    const labelled = dates
      .filter((found) => found.at >= labelEnd && found.at <= labelEnd + LABEL_REACH_CHARS)
      .sort((a, b) => a.at - b.at)[0];
    if (labelled !== undefined) return labelled.date;
  }
  const sorted = dates.map((found) => found.date).sort(compareCalendarDates);
  const past = sorted.filter((date) => compareCalendarDates(date, today) <= 0);
  return past.at(-1) ?? sorted[0] ?? null;
}

function datesIn(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  const add = (at: number, year: number, month: number, day: number) => {
    const date = validDate(year, month, day);
    if (date !== null) found.push({ date, at });
  };
  for (const m of text.matchAll(DAY_MONTH_NAME_YEAR)) {
    add(m.index, Number(m[3]), monthNumber(m[2] as string), Number(m[1]));
  }
  for (const m of text.matchAll(MONTH_NAME_DAY_YEAR)) {
    add(m.index, Number(m[3]), monthNumber(m[1] as string), Number(m[2]));
  }
  for (const m of text.matchAll(YEAR_FIRST)) add(m.index, Number(m[1]), Number(m[3]), Number(m[4]));

  const numeric = [...text.matchAll(YEAR_LAST)].map((m) => ({
    at: m.index,
    separator: m[2] as string,
    first: Number(m[1]),
    second: Number(m[3]),
    year: Number(m[4]),
  }));
  const monthFirst = textIsMonthFirst(numeric);
  for (const { at, separator, first, second, year } of numeric) {
    const dayFirst = separator === '.' || first > 12 || (second <= 12 && !monthFirst);
    if (dayFirst) add(at, year, second, first);
    else add(at, year, first, second);
  }
  return found;
}

/** The convention of the text's unambiguous slash or dash dates; day first when there is none. */
function textIsMonthFirst(numeric: readonly { separator: string; first: number; second: number }[]): boolean {
  const unambiguous = numeric.find(
    ({ separator, first, second }) => separator !== '.' && first > 12 !== second > 12,
  );
  return unambiguous !== undefined && unambiguous.second > 12;
}

function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function validDate(year: number, month: number, day: number): CalendarDate | null {
  if (year < 1900 || year > 2199 || month < 1 || month > 12) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return { year, month, day };
}

function isWithinWindow(issue: CalendarDate, today: CalendarDate, maxAgeDays: number): boolean {
  if (compareCalendarDates(issue, today) > 0) return false;
  return daysBetween(issue, today) <= maxAgeDays;
}

function daysBetween(earlier: CalendarDate, later: CalendarDate): number {
  const epochDay = ({ year, month, day }: CalendarDate) => Date.UTC(year, month - 1, day) / 86_400_000;
  return epochDay(later) - epochDay(earlier);
}

function isoOf({ year, month, day }: CalendarDate): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
