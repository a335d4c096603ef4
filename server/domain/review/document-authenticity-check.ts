import { type Check, type CheckDetails, failed, inconclusive, passed } from './checks.ts';
import { documentSources, sourceDisagreements } from './document-sources.ts';
import {
  DEFAULT_DOCUMENT_AUTHENTICITY,
  type DocumentReadingEvidence,
  type IdDocumentEvidence,
  type ReviewInput,
} from './review-input.ts';

/**
 * Width ÷ height of the document formats (ISO/IEC 7810, ICAO 9303): ID-1 cards 85.60 × 53.98 mm, TD2
 * 105 × 74 mm, TD3 passport pages 125 × 88 mm (an open passport's two pages, 125 × 176 mm, is √2 too).
 */
export const DOCUMENT_ASPECT_RATIOS = { TD1: 1.586, TD2: 1.419, TD3: 1.42 } as const;

/**
 * How far the measured ratio may stray, relative. Straightening a photo from its four corners is exact
 * only for a flat document shot square-on; a tilt of about 18° left uncorrected shortens one side by 5 %.
 * 5 % still keeps ID-1 (1.51–1.67) apart from passport pages (1.35–1.49).
 */
export const ASPECT_RATIO_TOLERANCE = 0.05;

/**
 * Mean OCR confidence of the zone above which check digits that do not verify are taken for an altered
 * zone rather than a misread. OCR-B read cleanly scores above this; a zone with glare or blur scores lower.
 */
export const MRZ_TAMPER_MIN_CONFIDENCE = 0.95;

/** The offline checks, in the order `details` lists them. */
type OfflineCheck =
  | 'machine_readable_data'
  | 'mrz_check_digits'
  | 'sources_agree'
  | 'portrait_face'
  | 'layout_aspect_ratio';

/**
 * What we can establish about a document's authenticity offline, honestly scoped: no forensics of
 * security features, fonts or photo substitution (`details.forensics: 'not_performed'`). The offline
 * checks:
 * - `machine_readable_data`: an MRZ whose check digits verify, or a decoded PDF417 barcode (a passport
 *   must have the MRZ);
 * - `mrz_check_digits`: when an MRZ was read, its check digits verify;
 * - `sources_agree`: the MRZ, the barcode and the typed details agree (when there are two or more);
 * - `portrait_face`: one face on the document (two with a ghost image);
 * - `layout_aspect_ratio`: the document's outline was found and its shape fits the format
 *   ({@link DOCUMENT_ASPECT_RATIOS} within {@link ASPECT_RATIO_TOLERANCE}; the MRZ's format when read,
 *   else passport = TD3 and every other type ID-1; either orientation).
 *
 * `failed` with `document_tampered` only on positive evidence, whatever the policy: check digits that do
 * not verify in a zone read with high confidence ({@link MRZ_TAMPER_MIN_CONFIDENCE}), or an MRZ that
 * verifies yet disagrees with the barcode (two zones the issuer printed from one record). With the
 * `offline_checks` policy (default) all checks passing is `passed`; otherwise `inconclusive`
 * (`offline_checks_incomplete`). With `manual_review` it is `inconclusive` (`forensics_unavailable`) so a
 * person looks, with the offline results in `details`.
 *
 * @example
 * checkDocumentAuthenticity(input)
 * // { status: 'passed', details: { method: ['machine_readable_data', 'mrz_check_digits', 'sources_agree',
 * //   'portrait_face', 'layout_aspect_ratio'], forensics: 'not_performed', engine: 'models', models: [...] } }
 */
export function checkDocumentAuthenticity({ evidence, policy }: ReviewInput): Check {
  const document = evidence.id_document;
  if (document === undefined) return inconclusive('document_authenticity', 'evidence_missing');
  const reading = document.reading;
  if (reading === undefined) return inconclusive('document_authenticity', 'model_unavailable');

  const results = offlineChecks(document, reading);
  const method = results.filter(([, ok]) => ok).map(([name]) => name);
  const unmet = results.filter(([, ok]) => !ok).map(([name]) => name);
  const scope: CheckDetails = {
    method,
    forensics: 'not_performed',
    engine: reading.engine.kind,
    models: reading.engine.models,
  };
  const tampering = tamperingEvidence(document, reading);
  if (tampering !== null)
    return failed('document_authenticity', ['document_tampered'], { ...tampering, ...scope });
  if ((policy.document_authenticity ?? DEFAULT_DOCUMENT_AUTHENTICITY) === 'manual_review') {
    return inconclusive('document_authenticity', 'forensics_unavailable', { ...scope, unmet });
  }
  if (unmet.length > 0)
    return inconclusive('document_authenticity', 'offline_checks_incomplete', { ...scope, unmet });
  return passed('document_authenticity', scope);
}

/** Each applicable offline check with whether it passed. */
function offlineChecks(
  document: IdDocumentEvidence,
  reading: DocumentReadingEvidence,
): [OfflineCheck, boolean][] {
  const mrz = reading.mrz;
  const mrzVerified = mrz?.check_digits_valid === true;
  const machineReadable =
    document.document_type === 'passport' ? mrzVerified : mrzVerified || reading.barcode !== null;
  const results: [OfflineCheck, boolean][] = [['machine_readable_data', machineReadable]];
  if (mrz !== null) results.push(['mrz_check_digits', mrzVerified]);
  const { sources } = documentSources(document);
  if (sources.size >= 2) results.push(['sources_agree', sourceDisagreements(sources).length === 0]);
  results.push(['portrait_face', reading.portrait_faces >= 1 && reading.portrait_faces <= 2]);
  results.push(['layout_aspect_ratio', aspectRatioFits(document.document_type, reading)]);
  return results;
}

function aspectRatioFits(documentType: string, reading: DocumentReadingEvidence): boolean {
  const { found, aspect_ratio: ratio } = reading.layout;
  if (!found || !(ratio > 0)) return false;
  const format = reading.mrz?.format ?? (documentType === 'passport' ? 'TD3' : 'TD1');
  const expected = DOCUMENT_ASPECT_RATIOS[format];
  const landscape = Math.max(ratio, 1 / ratio);
  return Math.abs(landscape - expected) <= expected * ASPECT_RATIO_TOLERANCE;
}

/** Positive evidence of an altered document, as `details`; null when there is none. */
function tamperingEvidence(
  document: IdDocumentEvidence,
  reading: DocumentReadingEvidence,
): CheckDetails | null {
  const mrz = reading.mrz;
  if (
    mrz !== null &&
    !mrz.check_digits_valid &&
    reading.mrz_confidence !== undefined &&
    reading.mrz_confidence >= MRZ_TAMPER_MIN_CONFIDENCE
  ) {
    return { evidence: 'mrz_check_digits_invalid', mrz_confidence: reading.mrz_confidence };
  }
  // Only the server's own reading of both zones counts: the device's MRZ is the end-user's word.
  if (mrz === null || !mrz.check_digits_valid || reading.barcode === null) return null;
  const printed = documentSources({ ...document, details: undefined, mrz: undefined }).sources;
  const [disagreement] = sourceDisagreements(printed);
  return disagreement === undefined
    ? null
    : { evidence: 'mrz_barcode_disagree', fields: disagreement.fields };
}
