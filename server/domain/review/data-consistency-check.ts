import { type Check, failed, inconclusive, passed } from './checks.ts';
import { contradictedFields } from './mrz-comparison.ts';
import type { ReviewInput } from './review-input.ts';

/**
 * Compares the confirmed details with the MRZ. Only an MRZ whose check digits verify may contradict the
 * user: bad check digits mostly mean a misread, so that case (and a document without MRZ, such as most
 * driving licences) stays `inconclusive` for a person to look at. `details` names the fields, never values.
 *
 * @example
 * // MRZ (valid check digits) says born 1990-04-01, the user typed 1991-04-01
 * checkDataConsistency(input) // { status: 'failed', reason_codes: ['data_mismatch'], details: { fields: ['date_of_birth'] } }
 */
export function checkDataConsistency({ evidence }: ReviewInput): Check {
  const details = evidence.id_document?.details;
  if (details === undefined) return inconclusive('data_consistency', 'evidence_missing');
  const mrz = evidence.id_document?.mrz;
  if (mrz === undefined) return inconclusive('data_consistency', 'mrz_missing');
  if (!mrz.check_digits_valid) return inconclusive('data_consistency', 'mrz_check_digits_invalid');
  const fields = contradictedFields(details, mrz);
  if (fields.length > 0) return failed('data_consistency', ['data_mismatch'], { fields });
  return passed('data_consistency');
}
