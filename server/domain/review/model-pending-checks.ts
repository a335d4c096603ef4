import { type Check, type CheckType, inconclusive } from './checks.ts';
import type { ReviewEvidence, ReviewInput } from './review-input.ts';

/**
 * Checks that need a model or a data source we do not have yet. They never pass: with their evidence they
 * are `inconclusive` for `model_unavailable`, without it for `evidence_missing`. When a model arrives, its
 * check moves to its own file (as face match, liveness, document authenticity and proof of address did).
 */
function pendingModel(type: CheckType, evidencePresent: (evidence: ReviewEvidence) => boolean) {
  return ({ evidence }: ReviewInput): Check =>
    inconclusive(type, evidencePresent(evidence) ? 'model_unavailable' : 'evidence_missing');
}

/**
 * Looking the business up in its jurisdiction's company registry.
 *
 * @example
 * checkBusinessRegistry(input).details // { cause: 'model_unavailable' }
 */
export const checkBusinessRegistry = pendingModel(
  'business_registry',
  (evidence) => evidence.business_details !== undefined,
);
