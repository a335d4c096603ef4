/**
 * The automated review: one pure function and its vocabulary. Import from here; the per-check files are
 * internal and may be split or merged as models arrive.
 *
 * @example
 * import { decide, reasonFor } from './domain/review/index.ts';
 */
export {
  type Check,
  CHECK_STATUSES,
  CHECK_TYPES,
  type CheckDetails,
  type CheckStatus,
  type CheckType,
  type InconclusiveCause,
} from './checks.ts';
export { decide } from './decide.ts';
export {
  isReasonCode,
  REASON_CATALOGUE,
  REASON_CODES,
  type Reason,
  type ReasonCode,
  reasonFor,
} from './reasons.ts';
export {
  BUSINESS_DOCUMENT_TYPES,
  type BusinessDetails,
  type CapturedDocument,
  type CapturedImage,
  type ConfirmedDetails,
  DEFAULT_DOCUMENT_AUTHENTICITY,
  DEFAULT_MINIMUM_AGE,
  DEFAULT_PROOF_OF_ADDRESS_MAX_AGE_DAYS,
  type DocumentReadingEvidence,
  type DuplicateSignals,
  type FaceMatchEvidence,
  type FaceSample,
  ID_DOCUMENT_TYPES,
  type IdDocumentEvidence,
  type IdDocumentType,
  type ParsedMrz,
  PROOF_OF_ADDRESS_DOCUMENT_TYPES,
  type ProofOfAddressEvidence,
  QUALITY_ISSUES,
  type QualityIssue,
  type ReviewEvidence,
  type ReviewInput,
  type ReviewPolicy,
  type ReviewSession,
  type WatchlistHit,
} from './review-input.ts';
export { type Decision, DECISIONS, type ReviewResult } from './review-result.ts';
export { RETRYABLE_REASON_CODES, REVIEW_REASON_CODES } from './severity.ts';
