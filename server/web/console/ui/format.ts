/**
 * Locale-aware formatting through Intl only: the console ships no date or number library.
 *
 * @example
 *   formatDateTime('de', '2025-03-01T10:00:00Z') // → '01.03.2025, 11:00' (in the browser's time zone)
 *   formatDuration('en', 5400)                  // → '1.5 hr'
 */

/**
 * Formatters made once per locale and options, then reused: building an `Intl` formatter costs far more
 * than formatting with it (tens of milliseconds for the first of a locale on a slow phone), and a screen
 * formats in loops (the review queue's waiting times, a check's details).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  kind: string,
  locale: string,
  options: object,
  make: () => T,
): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** `new Intl.NumberFormat(locale, options)`, made once per locale and options. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cached('number', locale, options, () => new Intl.NumberFormat(locale, options));
}

/** `new Intl.DateTimeFormat(locale, options)`, made once per locale and options. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached('date', locale, options, () => new Intl.DateTimeFormat(locale, options));
}

function relativeTimeFormat(locale: string): Intl.RelativeTimeFormat {
  const options: Intl.RelativeTimeFormatOptions = { numeric: 'auto' };
  return cached('relative', locale, options, () => new Intl.RelativeTimeFormat(locale, options));
}

export function formatDateTime(locale: string, iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A calendar day (`YYYY-MM-DD`, UTC) as the locale writes it, short. */
export function formatDay(locale: string, day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return dateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
}

export function formatNumber(locale: string, value: number): string {
  return numberFormat(locale).format(value);
}

export function formatPercent(locale: string, ratio: number): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

/** Seconds as the largest fitting unit (seconds, minutes, hours, days) with at most one decimal. */
export function formatDuration(locale: string, seconds: number): string {
  const units: [Intl.NumberFormatOptions['unit'], number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (seconds >= size) {
      return numberFormat(locale, {
        style: 'unit',
        unit,
        unitDisplay: 'short',
        maximumFractionDigits: 1,
      }).format(seconds / size);
    }
  }
  return numberFormat(locale, {
    style: 'unit',
    unit: 'second',
    unitDisplay: 'short',
    maximumFractionDigits: 0,
  }).format(seconds);
}

/** How long ago an instant was, in words ("3 hours ago"). */
export function formatAge(locale: string, iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = relativeTimeFormat(locale);
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3_600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3_600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/** `<input type=date>` value → the first or last instant of that UTC day, for `created_gte`/`created_lte`. */
export function dayBoundary(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  return end ? `${day}T23:59:59.999Z` : `${day}T00:00:00.000Z`;
}
