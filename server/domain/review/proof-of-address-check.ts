import { matchProofOfAddress } from '../proof-of-address-match.ts';
import { type Check, type CheckDetails, inconclusive, passed } from './checks.ts';
import {
  DEFAULT_PROOF_OF_ADDRESS_MAX_AGE_DAYS,
  type IdDocumentEvidence,
  type ParsedMrz,
  type ReviewInput,
} from './review-input.ts';

type NameSource = 'mrz' | 'barcode' | 'typed';

/**
 * The proof of address must name the person and be recent: its OCR text is searched for the identity
 * document's name and an issue date within the tenant's window (default 92 days), not in the future
 * (`proof-of-address-match.ts`). The name is the most trustworthy one the identity document gives: the
 * MRZ whose check digits verify (the server's reading before the device's), else the barcode, else the
 * typed details.
 *
 * A proof of address that does not show the name or a recent date is `inconclusive`, not `failed`: OCR
 * of a photographed page misses words and picks dates imperfectly, and no §5 reason code describes an
 * outdated or foreign proof of address, so a person decides. `details` holds flags, never the text, the
 * name or the date.
 *
 * @example
 * checkProofOfAddress(input)
 * // { status: 'passed', details: { name_source: 'mrz', name_found: true, issue_date_found: true,
 * //   within_window: true, max_age_days: 92, ocr_confidence: 0.91, engine: 'models', models: [...] } }
 */
export function checkProofOfAddress({ evidence, policy, now }: ReviewInput): Check {
  const document = evidence.proof_of_address;
  if (document === undefined) return inconclusive('proof_of_address', 'evidence_missing');
  const reading = document.reading;
  if (reading === undefined) return inconclusive('proof_of_address', 'model_unavailable');
  const reference = referenceName(evidence.id_document);
  if (reference === null)
    return inconclusive('proof_of_address', 'evidence_missing', { missing: 'reference_name' });

  const maxAgeDays = policy.proof_of_address_max_age_days ?? DEFAULT_PROOF_OF_ADDRESS_MAX_AGE_DAYS;
  const match = matchProofOfAddress(reading.text, reference.name, now, maxAgeDays);
  const details: CheckDetails = {
    name_source: reference.source,
    name_found: match.name_found,
    issue_date_found: match.issue_date !== null,
    within_window: match.within_window,
    max_age_days: maxAgeDays,
    ocr_confidence: Math.round(reading.confidence * 100) / 100,
    engine: reading.engine.kind,
    models: reading.engine.models,
  };
  if (!match.name_found) return inconclusive('proof_of_address', 'name_not_found', details);
  if (match.issue_date === null) return inconclusive('proof_of_address', 'issue_date_not_found', details);
  if (!match.within_window) return inconclusive('proof_of_address', 'issue_date_outside_window', details);
  return passed('proof_of_address', details);
}

function referenceName(
  document: IdDocumentEvidence | undefined,
): { source: NameSource; name: { first_name: string; last_name: string } } | null {
  if (document === undefined) return null;
  const verifiedMrz = [document.reading?.mrz, document.mrz].find(
    (mrz): mrz is ParsedMrz => mrz?.check_digits_valid === true,
  );
  const candidates: [NameSource, { first_name: string; last_name: string } | null | undefined][] = [
    ['mrz', verifiedMrz],
    ['barcode', document.reading?.barcode],
    ['typed', document.details],
  ];
  for (const [source, name] of candidates) {
    if (name && name.first_name.trim() !== '' && name.last_name.trim() !== '') {
      return { source, name: { first_name: name.first_name, last_name: name.last_name } };
    }
  }
  return null;
}
