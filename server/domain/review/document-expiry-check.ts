import { compareCalendarDates, parseCalendarDate, utcCalendarDate } from './calendar.ts';
import { type Check, failed, inconclusive, passed } from './checks.ts';
import type { ReviewInput } from './review-input.ts';

/**
 * A document is valid through its expiry date, so one expiring today still passes. The confirmed expiry
 * date is used; `data_consistency` separately makes sure it agrees with the MRZ.
 *
 * @example
 * // now = 2025-06-01, expiry_date = '2025-05-31'
 * checkDocumentExpiry(input).reason_codes // ['document_expired']
 */
export function checkDocumentExpiry({ evidence, now }: ReviewInput): Check {
  const details = evidence.id_document?.details;
  if (details === undefined) return inconclusive('document_expiry', 'evidence_missing');
  const expiry = parseCalendarDate(details.expiry_date);
  if (expiry === null) return inconclusive('document_expiry', 'invalid_date', { field: 'expiry_date' });
  if (compareCalendarDates(expiry, utcCalendarDate(now)) < 0) {
    return failed('document_expiry', ['document_expired']);
  }
  return passed('document_expiry');
}
