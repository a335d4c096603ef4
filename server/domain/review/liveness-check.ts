import { type Check, failed, inconclusive } from './checks.ts';
import type { ReviewInput } from './review-input.ts';

/**
 * All we can establish today is that the frames answered a fresh nonce-bound challenge; whether a live
 * person (not a replay or a mask) performed it needs a model we do not have, so an accepted attempt is
 * `inconclusive`, never `passed`. A rejected attempt is a real failure.
 *
 * @example
 * checkLiveness({ ...input, evidence: { liveness: { accepted: false } } }).reason_codes // ['liveness_failed']
 */
export function checkLiveness({ evidence }: ReviewInput): Check {
  if (evidence.liveness === undefined) return inconclusive('liveness', 'evidence_missing');
  if (!evidence.liveness.accepted) return failed('liveness', ['liveness_failed']);
  return inconclusive('liveness', 'model_unavailable', { frames_accepted: true });
}
