import type { StepName } from '../session-steps.ts';
import type { CheckType } from './checks.ts';
import type { ReviewSession } from './review-input.ts';

const needsAnyStep =
  (...steps: StepName[]) =>
  (session: ReviewSession): boolean =>
    steps.some((step) => session.required_steps.includes(step));

/**
 * Which session makes a check due. Keyed on the required steps rather than on flow and tier, so a
 * biometric re-verification (consent + liveness) gets exactly the checks its evidence allows. The
 * watchlist is the exception: screening is a tier3 obligation, whatever the steps.
 */
const DUE_WHEN: Readonly<Record<CheckType, (session: ReviewSession) => boolean>> = {
  consent: needsAnyStep('consent'),
  document_quality: needsAnyStep('id_document', 'proof_of_address', 'business_document'),
  document_authenticity: needsAnyStep('id_document'),
  document_expiry: needsAnyStep('id_document'),
  data_consistency: needsAnyStep('id_document'),
  age: needsAnyStep('id_document'),
  liveness: needsAnyStep('liveness'),
  face_match: needsAnyStep('liveness'),
  duplicate_detection: needsAnyStep('id_document', 'liveness'),
  watchlist: (session) => session.tier === 'tier3',
  proof_of_address: needsAnyStep('proof_of_address'),
  business_registry: needsAnyStep('business_details', 'business_document'),
};

/**
 * Whether the session's steps or tier call for a check; a check that is not due is `not_performed`.
 *
 * @example
 * isCheckDue('watchlist', { flow: 'user', tier: 'tier1', required_steps: ['consent', 'id_document'] }) // false
 */
export function isCheckDue(type: CheckType, session: ReviewSession): boolean {
  return DUE_WHEN[type](session);
}
