import { checkAge } from './age-check.ts';
import { CHECK_TYPES, type Check, type CheckType, notPerformed } from './checks.ts';
import { checkConsent } from './consent-check.ts';
import { checkDataConsistency } from './data-consistency-check.ts';
import { checkDocumentAuthenticity } from './document-authenticity-check.ts';
import { checkDocumentExpiry } from './document-expiry-check.ts';
import { checkDocumentQuality } from './document-quality-check.ts';
import { checkDuplicateDetection } from './duplicate-detection-check.ts';
import { checkFaceMatch } from './face-match-check.ts';
import { checkLiveness } from './liveness-check.ts';
import { checkBusinessRegistry } from './model-pending-checks.ts';
import { checkProofOfAddress } from './proof-of-address-check.ts';
import { isCheckDue } from './relevance.ts';
import type { ReviewInput } from './review-input.ts';
import type { ReviewResult } from './review-result.ts';
import { forcedVerdict } from './sandbox-override.ts';
import { verdictFromChecks } from './severity.ts';
import { checkWatchlist } from './watchlist-check.ts';

const EVALUATE: Readonly<Record<CheckType, (input: ReviewInput) => Check>> = {
  consent: checkConsent,
  document_quality: checkDocumentQuality,
  document_authenticity: checkDocumentAuthenticity,
  document_expiry: checkDocumentExpiry,
  data_consistency: checkDataConsistency,
  age: checkAge,
  liveness: checkLiveness,
  face_match: checkFaceMatch,
  duplicate_detection: checkDuplicateDetection,
  watchlist: checkWatchlist,
  proof_of_address: checkProofOfAddress,
  business_registry: checkBusinessRegistry,
};

/**
 * The automated review (API.md §5): evidence, tenant policy and environment in, decision out. Pure: no
 * I/O and no clock (`now` is an input), so the same input always gives the same result.
 *
 * Every check type is reported, in the contract's order; checks the session's steps or tier do not call
 * for are `not_performed`. The decision follows from the checks (precedence in `severity.ts`), unless a
 * sandbox session forced an outcome, in which case the checks are still reported as they came out.
 *
 * @example
 * const result = decide({
 *   session: { flow: 'user', tier: 'tier2', required_steps: ['consent', 'id_document', 'liveness'] },
 *   evidence: {
 *     consent: { accepted: true },
 *     id_document: { document_type: 'passport', images, details, reading }, // reading: MRZ, portrait, layout
 *     liveness: { accepted: true, judgement },                          // every action performed
 *     face_match: { reference, probes, space, engine },                 // the portrait matches a frame
 *     duplicates: { document_number_used_by_other_reference: false, image_reused_in_other_session: false },
 *   },
 *   policy: {},
 *   environment: 'production',
 *   now: new Date(),
 * });
 * result.decision // 'approved'; with policy { document_authenticity: 'manual_review' }: 'review_required'
 */
export function decide(input: ReviewInput): ReviewResult {
  const checks = CHECK_TYPES.map((type) =>
    isCheckDue(type, input.session) ? EVALUATE[type](input) : notPerformed(type),
  );
  const verdict =
    forcedVerdict(input.session, input.environment) ?? verdictFromChecks(checks, input.environment);
  return { ...verdict, checks };
}
