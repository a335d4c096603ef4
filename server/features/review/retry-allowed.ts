import type { ReasonCode } from '../../domain/review/index.ts';
import type { SessionStatus } from '../../domain/session-status.ts';

/**
 * Rejections a new attempt cannot fix, or must not be invited to: the person's age will not change, and
 * inviting a retry after a fraud or screening finding (or a reviewer's no) helps the wrong people.
 */
const FINAL_REASON_CODES: ReadonlySet<ReasonCode> = new Set([
  'underage',
  'document_tampered',
  'face_mismatch',
  'duplicate_identity',
  'watchlist_hit',
  'manual_rejection',
]);

/**
 * Result `retry_allowed` (API.md §5): may the end-user try again? Yes while the session itself waits for
 * a recapture (`collecting` after a resubmission request), and after an expired or cancelled session or
 * a rejection for fixable reasons (expired document, typo, failed selfie, attempts used up) by starting a
 * new session. No while the session is still running or in review, after approval, and after a final
 * rejection.
 *
 * @example
 * retryAllowed('rejected', ['document_expired'], false) // true
 * retryAllowed('rejected', ['underage'], false) // false
 */
export function retryAllowed(
  status: SessionStatus,
  reasonCodes: readonly string[],
  awaitingResubmission: boolean,
): boolean {
  switch (status) {
    case 'collecting':
      return awaitingResubmission;
    case 'expired':
    case 'cancelled':
      return true;
    case 'rejected':
      return !reasonCodes.some((code) => FINAL_REASON_CODES.has(code as ReasonCode));
    case 'created':
    case 'processing':
    case 'review_required':
    case 'approved':
      return false;
  }
}
