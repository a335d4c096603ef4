import { type Check, failed, passed } from './checks.ts';
import type { ReviewInput } from './review-input.ts';

/**
 * Consent is a legal precondition, not a verification signal: without it nothing may be processed, so a
 * missing or refused consent fails (and blocks approval) instead of being `inconclusive`. No §5 reason
 * code describes it, so the failure carries none; `details.consent` says which case it was.
 *
 * @example
 * checkConsent({ ...input, evidence: { consent: { accepted: true } } }).status // 'passed'
 */
export function checkConsent({ evidence }: ReviewInput): Check {
  if (evidence.consent === undefined) return failed('consent', [], { consent: 'missing' });
  if (!evidence.consent.accepted) return failed('consent', [], { consent: 'refused' });
  return passed('consent');
}
