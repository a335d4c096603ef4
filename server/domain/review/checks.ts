import type { ReasonCode } from './reasons.ts';

/** Every check a result reports (API.md §5), in the order the result lists them. */
export const CHECK_TYPES = [
  'consent',
  'document_quality',
  'document_authenticity',
  'document_expiry',
  'data_consistency',
  'age',
  'liveness',
  'face_match',
  'duplicate_detection',
  'watchlist',
  'proof_of_address',
  'business_registry',
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

/**
 * `inconclusive` means the check was due but could not be decided (no model yet, evidence missing);
 * `not_performed` means the session's steps or tier do not call for it.
 */
export const CHECK_STATUSES = ['passed', 'failed', 'inconclusive', 'not_performed'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/**
 * Facts a reviewer may want beside a status. JSON-safe and free of personal values: field names, counts,
 * scores and flags only, because checks are shown to every console role.
 */
export type CheckDetails = Readonly<Record<string, string | number | boolean | readonly string[]>>;

/** One entry of a result's `checks`. */
export interface Check {
  type: CheckType;
  status: CheckStatus;
  reason_codes: ReasonCode[];
  details?: CheckDetails;
}

/**
 * @example
 * passed('consent') // { type: 'consent', status: 'passed', reason_codes: [] }
 */
export function passed(type: CheckType, details?: CheckDetails): Check {
  return withDetails({ type, status: 'passed', reason_codes: [] }, details);
}

/**
 * A check whose rule fired. A failure without a code still blocks approval (see `severity.ts`).
 *
 * @example
 * failed('document_expiry', ['document_expired'])
 */
export function failed(type: CheckType, reasonCodes: ReasonCode[], details?: CheckDetails): Check {
  return withDetails({ type, status: 'failed', reason_codes: reasonCodes }, details);
}

/**
 * Why a due check could not be decided, reported as `details.cause`:
 * - `model_unavailable`: deciding needs a model that did not run (no engine, or one we do not have, such
 *   as the business registry look-up);
 * - `evidence_missing`: the step's evidence is not in the session;
 * - `lookup_not_run`: the engine did not run the duplicate look-up or the watchlist screening;
 * - `mrz_missing` / `mrz_check_digits_invalid`: no trustworthy MRZ to compare the details with;
 * - `invalid_date`: a date is malformed or impossible (e.g. a birth date in the future);
 * - `no_face_on_document` / `no_face_on_selfie` / `several_faces` / `face_too_small`: the face match has
 *   no usable face on the reference or on any probe;
 * - `offline_checks_incomplete`: not every offline document check could be passed, without evidence of
 *   tampering either; `forensics_unavailable`: the tenant wants a person to judge authenticity;
 * - `name_not_found` / `issue_date_not_found` / `issue_date_outside_window`: the proof of address did not
 *   show the person's name or a recent enough issue date (OCR may have missed it, so a person looks).
 */
export type InconclusiveCause =
  | 'model_unavailable'
  | 'evidence_missing'
  | 'lookup_not_run'
  | 'mrz_missing'
  | 'mrz_check_digits_invalid'
  | 'invalid_date'
  | 'no_face_on_document'
  | 'no_face_on_selfie'
  | 'several_faces'
  | 'face_too_small'
  | 'offline_checks_incomplete'
  | 'forensics_unavailable'
  | 'name_not_found'
  | 'issue_date_not_found'
  | 'issue_date_outside_window';

/**
 * A due check we cannot decide. The cause is always reported, so nobody mistakes it for a pass.
 *
 * @example
 * inconclusive('face_match', 'model_unavailable')
 * // { type: 'face_match', status: 'inconclusive', reason_codes: [], details: { cause: 'model_unavailable' } }
 */
export function inconclusive(type: CheckType, cause: InconclusiveCause, details?: CheckDetails): Check {
  return { type, status: 'inconclusive', reason_codes: [], details: { cause, ...details } };
}

/**
 * @example
 * notPerformed('watchlist') // { type: 'watchlist', status: 'not_performed', reason_codes: [] }
 */
export function notPerformed(type: CheckType): Check {
  return { type, status: 'not_performed', reason_codes: [] };
}

function withDetails(check: Check, details: CheckDetails | undefined): Check {
  return details === undefined ? check : { ...check, details };
}
