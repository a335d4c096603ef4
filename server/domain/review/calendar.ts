/**
 * A date without a time of day, as printed on a document. Comparing these instead of `Date` instants keeps
 * birthdays and expiry dates free of time-zone and daylight-saving drift.
 */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads a strict `YYYY-MM-DD` date and refuses impossible ones (`2023-02-29`, `2024-13-01`), which
 * `new Date()` would silently roll over into the next month.
 *
 * @example
 * parseCalendarDate('2024-02-29') // { year: 2024, month: 2, day: 29 }
 * parseCalendarDate('2023-02-29') // null
 */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = ISO_DATE.exec(text);
  if (match === null) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.month < 1 || date.month > 12) return null;
  if (date.day < 1 || date.day > daysInMonth(date.year, date.month)) return null;
  return date;
}

/**
 * The calendar date of an instant in UTC. The review runs in UTC so that the same evidence gives the same
 * decision on every server; near midnight this can be a few hours off the end-user's local date.
 *
 * @example
 * utcCalendarDate(new Date('2025-03-01T23:30:00Z')) // { year: 2025, month: 3, day: 1 }
 */
export function utcCalendarDate(instant: Date): CalendarDate {
  return { year: instant.getUTCFullYear(), month: instant.getUTCMonth() + 1, day: instant.getUTCDate() };
}

/**
 * Negative when `a` is earlier than `b`, zero on the same day, positive when later.
 *
 * @example
 * compareCalendarDates({ year: 2025, month: 1, day: 31 }, { year: 2025, month: 2, day: 1 }) < 0 // true
 */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Whole years lived from `birth` up to and including `on`. Someone born on 29 February turns a year older
 * on 1 March in common years (the English and most European legal reading), never on 28 February: for an
 * age gate that is the cautious choice.
 *
 * @example
 * completedYears({ year: 2008, month: 2, day: 29 }, { year: 2026, month: 2, day: 28 }) // 17
 * completedYears({ year: 2008, month: 2, day: 29 }, { year: 2026, month: 3, day: 1 }) // 18
 */
export function completedYears(birth: CalendarDate, on: CalendarDate): number {
  const birthdayNotYetReached = on.month < birth.month || (on.month === birth.month && on.day < birth.day);
  return on.year - birth.year - (birthdayNotYetReached ? 1 : 0);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysInMonth(year: number, month: number): number {
  // Computed rather than via Date.UTC, which maps years 0–99 to 1900–1999.
  if (month === 2 && isLeapYear(year)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
