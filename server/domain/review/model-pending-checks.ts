import { type Check, type CheckType, inconclusive } from './checks.ts';
import type { ReviewEvidence, ReviewInput } from './review-input.ts';

/**
 * Checks that need a model or a data source we do not have yet. They never pass: with their evidence they
 * are `inconclusive` for `model_unavailable`, without it for `evidence_missing`. When a model arrives, its
 * check moves to its own file.
 */
function pendingModel(type: CheckType, evidencePresent: (evidence: ReviewEvidence) => boolean) {
  return ({ evidence }: ReviewInput): Check =>
    inconclusive(type, evidencePresent(evidence) ? 'model_unavailable' : 'evidence_missing');
}

/**
 * Document forensics (security features, fonts, photo substitution).
 *
 * @example
 * checkDocumentAuthenticity(input).details // { cause: 'model_unavailable' }
 */
export const checkDocumentAuthenticity = pendingModel(
  'document_authenticity',
  (evidence) => evidence.id_document !== undefined,
);

/**
 * Comparing the selfie with the document portrait (or the enrolled selfie on re-verification).
 *
 * @example
 * checkFaceMatch(input).status // 'inconclusive'
 */
export const checkFaceMatch = pendingModel('face_match', (evidence) => evidence.liveness !== undefined);

/**
 * Reading the address off the document and matching it (and its date) to the person.
 *
 * @example
 * checkProofOfAddress({ ...input, evidence: {} }).details // { cause: 'evidence_missing' }
 */
export const checkProofOfAddress = pendingModel(
  'proof_of_address',
  (evidence) => evidence.proof_of_address !== undefined,
);

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
