import type { Environment } from '../api-key-format.ts';
import { reasonFor } from './reasons.ts';
import type { ReviewSession } from './review-input.ts';
import { rejection, toReasons, type Verdict } from './severity.ts';

/**
 * The outcome a sandbox session asked for (API.md §4 `sandbox`), or null to decide for real. Production
 * ignores the field even if one slipped into storage: a test setting must never decide a real identity.
 * A forced rejection is retryable when all given codes are, so integrators can rehearse resubmission.
 *
 * @example
 * forcedVerdict({ ...session, sandbox: { outcome: 'rejected', reason_codes: ['underage'] } }, 'sandbox')
 * // { decision: 'rejected', reasons: [sandbox_forced, underage], retryable: false }
 */
export function forcedVerdict(session: ReviewSession, environment: Environment): Verdict | null {
  const forced = session.sandbox;
  if (environment !== 'sandbox' || forced === undefined || forced === null) return null;
  const codes = (forced.reason_codes ?? []).filter((code) => code !== 'sandbox_forced');
  const retryable = forced.outcome === 'rejected' && rejection(codes).retryable;
  return { decision: forced.outcome, reasons: [reasonFor('sandbox_forced'), ...toReasons(codes)], retryable };
}
