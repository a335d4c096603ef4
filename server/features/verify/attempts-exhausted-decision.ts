import { type Check, type CheckType, type Reason, reasonFor } from '../../domain/review/index.ts';
import type { StepName } from '../../domain/session-steps.ts';

/** What the end-user is told per step; never more than which capture ran out, never a finding. */
const USER_MESSAGES: Partial<Record<StepName, string>> = {
  id_document: 'You have used all attempts to photograph your document. Please start a new verification.',
  proof_of_address:
    'You have used all attempts to photograph your proof of address. Please start a new verification.',
  business_document:
    'You have used all attempts to photograph the business document. Please start a new verification.',
  liveness: 'You have used all attempts at the selfie check. Please start a new verification.',
};

/**
 * The check that judges a step's evidence: document photos are `document_quality` (every document
 * step's images are judged there), the selfie frames `liveness`.
 */
function checkOfStep(step: StepName): CheckType {
  return step === 'liveness' ? 'liveness' : 'document_quality';
}

/**
 * The decision record of a session rejected because a step ran out of attempts (API.md §4): one
 * `attempts_exhausted` reason naming the step for the tenant, and the step's check failed, so
 * `GET /v1/sessions/:id/result` explains the rejection like any automated one. The number of attempts
 * is the tenant's (`attempts_per_step`) as it was when the session was created, which the session does
 * not keep; the details name the step only.
 *
 * @example
 * attemptsExhaustedDecision('liveness').checks
 * // [{ type: 'liveness', status: 'failed', reason_codes: ['attempts_exhausted'], details: { step: 'liveness' } }]
 */
export function attemptsExhaustedDecision(step: StepName): { reasons: Reason[]; checks: Check[] } {
  const generic = reasonFor('attempts_exhausted');
  return {
    reasons: [
      {
        code: 'attempts_exhausted',
        message: `The end-user used every attempt at the \`${step}\` step (refusals for capture quality are not counted).`,
        user_message: USER_MESSAGES[step] ?? generic.user_message,
      },
    ],
    checks: [
      {
        type: checkOfStep(step),
        status: 'failed',
        reason_codes: ['attempts_exhausted'],
        details: { step },
      },
    ],
  };
}
