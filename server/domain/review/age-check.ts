import { compareCalendarDates, completedYears, parseCalendarDate, utcCalendarDate } from './calendar.ts';
import { type Check, failed, inconclusive, passed } from './checks.ts';
import { DEFAULT_MINIMUM_AGE, type ReviewInput } from './review-input.ts';

/**
 * The person must have reached the tenant's minimum age (default 18) on the day of the review; turning 18
 * today is enough. A birth date in the future is a data error, not an age, so it is `inconclusive`.
 *
 * @example
 * // now = 2025-06-01, date_of_birth = '2007-06-02', minimum_age unset
 * checkAge(input).reason_codes // ['underage']
 */
export function checkAge({ evidence, policy, now }: ReviewInput): Check {
  const details = evidence.id_document?.details;
  if (details === undefined) return inconclusive('age', 'evidence_missing');
  const minimumAge = policy.minimum_age ?? DEFAULT_MINIMUM_AGE;
  const birth = parseCalendarDate(details.date_of_birth);
  const today = utcCalendarDate(now);
  if (birth === null || compareCalendarDates(birth, today) > 0) {
    return inconclusive('age', 'invalid_date', { field: 'date_of_birth' });
  }
  if (completedYears(birth, today) < minimumAge) {
    return failed('age', ['underage'], { minimum_age: minimumAge });
  }
  return passed('age', { minimum_age: minimumAge });
}
