import type { Check } from './checks.ts';
import type { Reason } from './reasons.ts';

/** Outcomes of an automated review (API.md §5 `decision`). */
export const DECISIONS = ['approved', 'rejected', 'review_required'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * What the automated review hands to the engine. `reasons` explain the decision itself; `checks` list
 * everything that was (or was not) examined, including findings that did not drive the decision.
 */
export interface ReviewResult {
  decision: Decision;
  checks: Check[];
  reasons: Reason[];
  /**
   * True when the session was rejected only for problems the end-user can fix by capturing again
   * (unreadable or unsupported document): the engine may send it back to `collecting`.
   */
  retryable: boolean;
}
