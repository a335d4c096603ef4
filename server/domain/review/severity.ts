import type { Environment } from '../api-key-format.ts';
import type { Check } from './checks.ts';
import { REASON_CODES, type ReasonCode, reasonFor } from './reasons.ts';
import type { ReviewResult } from './review-result.ts';

/** The decision part of a result, without the checks it was derived from. */
export type Verdict = Omit<ReviewResult, 'checks'>;

/**
 * Findings that need a person, not a verdict: each has innocent explanations (a namesake on a watchlist,
 * a re-keyed user reference, a face the embedder can neither confirm nor rule out), and a human can ask
 * questions a rule cannot. Every other code on a failed
 * check rejects.
 */
export const REVIEW_REASON_CODES: ReadonlySet<ReasonCode> = new Set([
  'duplicate_identity',
  'watchlist_hit',
  'face_match_uncertain',
]);

/** Rejections the end-user can fix by capturing again; the engine may then reopen the session. */
export const RETRYABLE_REASON_CODES: ReadonlySet<ReasonCode> = new Set([
  'document_unreadable',
  'document_type_not_supported',
]);

/**
 * Derives the decision from the checks alone, so the reported checks always explain it.
 *
 * Precedence, strongest first:
 * 1. rejected: any failed check with a rejecting code, or with no code at all (a failure we cannot name
 *    must still never approve). A rule that rejects does so however uncertain the rest is.
 * 2. review_required: any failed check with a review code, or, in production, any inconclusive check:
 *    what we could not decide must not be approved unseen. In the sandbox inconclusive checks do not
 *    block, so integrators can reach `approved` before our models exist; real rules still apply there.
 * 3. approved: nothing above.
 *
 * `reasons` name only the codes that produced the decision (for a review caused solely by inconclusive
 * checks there is no §5 code, so it is empty); `checks` keep every finding.
 *
 * @example
 * verdictFromChecks([failed('document_expiry', ['document_expired'])], 'sandbox')
 * // { decision: 'rejected', reasons: [reasonFor('document_expired')], retryable: false }
 */
export function verdictFromChecks(checks: readonly Check[], environment: Environment): Verdict {
  const failures = checks.filter((check) => check.status === 'failed');
  const codes = failures.flatMap((check) => check.reason_codes);
  const rejectingCodes = codes.filter((code) => !REVIEW_REASON_CODES.has(code));
  const unnamedFailure = failures.some((check) => check.reason_codes.length === 0);
  if (rejectingCodes.length > 0 || unnamedFailure) return rejection(rejectingCodes, !unnamedFailure);
  const reviewCodes = codes.filter((code) => REVIEW_REASON_CODES.has(code));
  const undecided = environment === 'production' && checks.some((check) => check.status === 'inconclusive');
  if (reviewCodes.length > 0 || undecided) {
    return { decision: 'review_required', reasons: toReasons(reviewCodes), retryable: false };
  }
  return { decision: 'approved', reasons: [], retryable: false };
}

/**
 * A rejected verdict; retryable when every code is one capturing again can fix.
 *
 * @example
 * rejection(['document_unreadable']).retryable // true
 * rejection(['document_unreadable', 'underage']).retryable // false
 */
export function rejection(codes: readonly ReasonCode[], retryAllowed = true): Verdict {
  const retryable =
    retryAllowed && codes.length > 0 && codes.every((code) => RETRYABLE_REASON_CODES.has(code));
  return { decision: 'rejected', reasons: toReasons(codes), retryable };
}

/**
 * Unique codes in the contract's order, so equal findings always read the same.
 *
 * @example
 * toReasons(['underage', 'document_expired', 'underage']).map((reason) => reason.code) // ['document_expired', 'underage']
 */
export function toReasons(codes: readonly ReasonCode[]): ReviewResult['reasons'] {
  return REASON_CODES.filter((code) => codes.includes(code)).map(reasonFor);
}
