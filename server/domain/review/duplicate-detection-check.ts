import { type Check, failed, inconclusive, passed } from './checks.ts';
import type { ReviewInput } from './review-input.ts';

/**
 * Either signal is `duplicate_identity`, which asks for a review rather than rejecting (see `severity.ts`):
 * both have innocent explanations a person can tell apart from fraud, e.g. a tenant that re-keyed its user
 * references, or someone who restarts an expired session with the same photo from their gallery.
 *
 * @example
 * // duplicates: { document_number_used_by_other_reference: true, image_reused_in_other_session: false }
 * checkDuplicateDetection(input).reason_codes // ['duplicate_identity']
 */
export function checkDuplicateDetection({ evidence }: ReviewInput): Check {
  const signals = evidence.duplicates;
  if (signals === undefined) return inconclusive('duplicate_detection', 'lookup_not_run');
  const details = {
    document_number_reused: signals.document_number_used_by_other_reference,
    image_reused: signals.image_reused_in_other_session,
  };
  if (details.document_number_reused || details.image_reused) {
    return failed('duplicate_detection', ['duplicate_identity'], details);
  }
  return passed('duplicate_detection');
}
