import { type Check, type CheckDetails, failed, inconclusive, passed } from './checks.ts';
import { documentSources, sourceDisagreements } from './document-sources.ts';
import type { ComparedField } from './mrz-comparison.ts';
import type { ReviewInput } from './review-input.ts';

const FIELD_ORDER: readonly ComparedField[] = [
  'last_name',
  'first_name',
  'date_of_birth',
  'document_number',
  'expiry_date',
];

/**
 * Compares the document's details field by field across every trustworthy source: the typed (confirmed)
 * details, the MRZ and the PDF417 barcode (`document-sources.ts`). Only an MRZ whose check digits verify
 * may contradict anything: bad check digits mostly mean a misread. With fewer than two sources there is
 * nothing to compare, so the check stays `inconclusive` (`mrz_check_digits_invalid`, `mrz_missing`, or
 * `evidence_missing` without details) for a person to look at. `details` names the sources and the
 * fields, never values.
 *
 * @example
 * // MRZ (valid check digits) says born 1990-04-01, the user typed 1991-04-01
 * checkDataConsistency(input)
 * // { status: 'failed', reason_codes: ['data_mismatch'], details: { sources: ['typed', 'mrz'], fields: ['date_of_birth'] } }
 */
export function checkDataConsistency({ evidence }: ReviewInput): Check {
  const document = evidence.id_document;
  if (document === undefined) return inconclusive('data_consistency', 'evidence_missing');
  const { sources, unverifiedMrz } = documentSources(document);
  const names = [...sources.keys()];
  const flags: CheckDetails = unverifiedMrz ? { sources: names, unverified_mrz: true } : { sources: names };
  // Nothing was typed because the server read the details off the document (the end-user skipped that
  // screen): a verified MRZ or a decoded barcode is the one source, and its own integrity (check digits,
  // PDF417 error correction) is what there is to check.
  const readSource = document.details_source;
  if (sources.size === 1 && (readSource === 'mrz' || readSource === 'barcode') && sources.has(readSource)) {
    return passed('data_consistency', { ...flags, single_source: true });
  }
  if (sources.size < 2) {
    if (document.details === undefined) return inconclusive('data_consistency', 'evidence_missing', flags);
    return inconclusive(
      'data_consistency',
      unverifiedMrz ? 'mrz_check_digits_invalid' : 'mrz_missing',
      flags,
    );
  }
  const disagreeing = new Set(sourceDisagreements(sources).flatMap((disagreement) => disagreement.fields));
  if (disagreeing.size > 0) {
    const fields = FIELD_ORDER.filter((field) => disagreeing.has(field));
    return failed('data_consistency', ['data_mismatch'], { ...flags, fields });
  }
  return passed('data_consistency', flags);
}
