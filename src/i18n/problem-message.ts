import { VerifyApiError } from '../api/verify-api-error.ts';
import type { MessageKey } from './en.ts';
import type { Translate } from './localize.ts';

/**
 * The widget's own wording of each problem `code` the end-user endpoints send (API.md §2, §9), so the
 * end-user reads it in the widget's language; the server's `user_message` is English and is shown only
 * for a code not listed here (clients must tolerate new codes).
 */
const BY_CODE: Readonly<Record<string, MessageKey>> = {
  unprocessable_image: 'problemUnreadableImage',
  payload_too_large: 'problemTooLarge',
  unsupported_media_type: 'captureFileType',
  upload_limit_reached: 'problemUploadLimit',
  rate_limited: 'problemRateLimited',
  too_many_attempts: 'problemRateLimited',
  tenant_suspended: 'problemUnavailable',
  origin_not_allowed: 'problemOriginNotAllowed',
  steps_incomplete: 'problemStepsIncomplete',
  invalid_state_transition: 'problemReadOnly',
  session_expired: 'expiredSessionBody',
  verify_token_expired: 'expiredTokenBody',
  token_expired: 'expiredTokenBody',
  invalid_token: 'invalidLinkBody',
  authentication_required: 'invalidLinkBody',
  network_error: 'offlineBody',
  internal_error: 'offlineBody',
  service_unavailable: 'offlineBody',
  // A request the widget built wrong: the server's wording is for developers.
  invalid_parameter: 'genericError',
  missing_parameter: 'genericError',
  unknown_parameter: 'genericError',
  resource_missing: 'genericError',
  idempotency_key_reused: 'genericError',
  idempotency_request_in_progress: 'genericError',
  insufficient_capability: 'genericError',
};

/** `document_type_mismatch` says what the photo looked like instead (`seen`, API.md §9). */
const MISMATCH: Readonly<Record<string, MessageKey>> = {
  selfie: 'mismatchSelfie',
  text_page: 'mismatchTextPage',
  no_document: 'mismatchNoDocument',
  other_document: 'mismatchOtherDocument',
};

/** Per field of the details form: what to say when the server finds the value invalid. */
const INVALID_FIELD: Readonly<Record<string, MessageKey>> = {
  date_of_birth: 'fieldCheckDateOfBirth',
  expiry_date: 'fieldCheckExpiryDate',
  nationality: 'invalidCountryCode',
  jurisdiction: 'invalidCountryCode',
};

/** One field-level error of a problem document (`param` + `code`, or an entry of `errors[]`). */
export interface FieldProblem {
  param: string;
  code: string;
}

/** The field errors a problem names: its `errors[]`, else its own `param`. */
export function fieldProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof VerifyApiError)) return [];
  const { problem } = error;
  if (problem.errors?.length) return problem.errors.filter((e) => e.param);
  return problem.param ? [{ param: problem.param, code: error.code }] : [];
}

/** The message shown next to one field. */
export function fieldMessage(field: FieldProblem, t: Translate): string {
  if (field.code === 'missing_parameter') return t('required');
  return t(INVALID_FIELD[field.param] ?? 'fieldInvalid');
}

/**
 * What to tell the end-user about a failed call, in the widget's language.
 *
 * @example
 *   problemMessage(new VerifyApiError(422, { code: 'unprocessable_image' }), t) // 'We could not read this photo…'
 */
export function problemMessage(error: unknown, t: Translate): string {
  if (!(error instanceof VerifyApiError)) return t('offlineBody');
  const { problem } = error;
  if (error.code === 'document_type_mismatch') {
    return t(MISMATCH[problem.seen ?? ''] ?? 'mismatchNoDocument');
  }
  const key = BY_CODE[error.code];
  if (key) return t(key);
  if (error.isTransient) return t('offlineBody');
  return problem.user_message ?? t('genericError');
}

/** Decision reason codes (API.md §5) as the end-user reads them; tipping-off ones share a neutral text. */
const BY_REASON: Readonly<Record<string, MessageKey>> = {
  document_expired: 'reasonDocumentExpired',
  document_unreadable: 'reasonDocumentUnreadable',
  document_type_not_supported: 'reasonDocumentNotAccepted',
  data_mismatch: 'reasonDataMismatch',
  underage: 'reasonUnderage',
  liveness_failed: 'reasonLivenessFailed',
  attempts_exhausted: 'reasonAttemptsExhausted',
  sandbox_forced: 'reasonSandbox',
  document_tampered: 'reasonNeutral',
  face_mismatch: 'reasonNeutral',
  face_match_uncertain: 'reasonNeutral',
  duplicate_identity: 'reasonNeutral',
  watchlist_hit: 'reasonNeutral',
  manual_rejection: 'reasonNeutral',
};

/** A decision reason in the widget's language; the server's text only for a code the widget does not know. */
export function reasonMessage(
  reason: { code: string; user_message?: string },
  t: Translate,
  tenant: string,
): string {
  const key = BY_REASON[reason.code];
  return key ? t(key, { tenant }) : (reason.user_message ?? '');
}
