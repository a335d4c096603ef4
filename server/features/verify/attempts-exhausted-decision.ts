import { type Check, type CheckType, type Reason, reasonFor } from '../../domain/review/index.ts';
import { ATTEMPTS_PER_STEP, type StepName } from '../../domain/session-steps.ts';

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
 * `GET /v1/sessions/:id/result` explains the rejection like any automated one.
 *
 * @example
 * attemptsExhaustedDecision('liveness').checks
 * // [{ type: 'liveness', status: 'failed', reason_codes: ['attempts_exhausted'], details: { step: 'liveness', attempts: 3 } }]
 */
export function attemptsExhaustedDecision(step: StepName): { reasons: Reason[]; checks: Check[] } {
  const generic = reasonFor('attempts_exhausted');
  return {
    reasons: [
      {
        code: 'attempts_exhausted',
        message: `The end-user used all ${ATTEMPTS_PER_STEP} attempts at the \`${step}\` step.`,
        user_message: USER_MESSAGES[step] ?? generic.user_message,
      },
    ],
    checks: [
      {
        type: checkOfStep(step),
        status: 'failed',
        reason_codes: ['attempts_exhausted'],
        details: { step, attempts: ATTEMPTS_PER_STEP },
      },
    ],
  };
}
