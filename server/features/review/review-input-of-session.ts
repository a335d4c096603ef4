import {
  DECISIONS,
  type Decision,
  isReasonCode,
  type ReasonCode,
  type ReviewEvidence,
  type ReviewInput,
  type ReviewSession,
} from '../../domain/review/index.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { TenantRow } from '../../store/tenants.ts';

export interface ForcedOutcome {
  outcome: Decision;
  reason_codes?: readonly ReasonCode[];
}

/**
 * The create-time `sandbox` setting of a session (API.md §4), read defensively from storage: an unknown
 * outcome or reason code is ignored rather than trusted.
 *
 * @example
 * sandboxOutcomeOf({ outcome: 'rejected', reason_codes: ['underage', 'bogus'] }) // { outcome: 'rejected', reason_codes: ['underage'] }
 */
export function sandboxOutcomeOf(sandbox: SessionRow['sandbox']): ForcedOutcome | null {
  const outcome = sandbox?.['outcome'];
  if (typeof outcome !== 'string' || !(DECISIONS as readonly string[]).includes(outcome)) return null;
  const codes = sandbox?.['reason_codes'];
  return {
    outcome: outcome as Decision,
    reason_codes: Array.isArray(codes) ? codes.filter(isReasonCode) : [],
  };
}

/** The create-time `sandbox.processing_delay_ms`, 0 when absent or not a sane number. */
export function processingDelayOf(sandbox: SessionRow['sandbox']): number {
  const delay = sandbox?.['processing_delay_ms'];
  return typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay : 0;
}

/**
 * Everything `decide` needs for one session: its steps, the tenant's policy (minimum age, how document
 * authenticity is judged, the age limit of a proof of address), the environment and, in the sandbox, a
 * forced outcome (a simulation's, else the create-time one).
 */
export function reviewInputOf(
  session: SessionRow,
  tenant: Pick<TenantRow, 'minimum_age' | 'document_authenticity' | 'proof_of_address_max_age_days'>,
  evidence: ReviewEvidence,
  now: Date,
  forced?: ForcedOutcome,
): ReviewInput {
  const reviewSession: ReviewSession = {
    flow: session.flow,
    tier: session.tier,
    required_steps: session.required_steps,
    sandbox: forced ?? sandboxOutcomeOf(session.sandbox),
  };
  return {
    session: reviewSession,
    evidence,
    policy: {
      minimum_age: tenant.minimum_age,
      document_authenticity: tenant.document_authenticity,
      proof_of_address_max_age_days: tenant.proof_of_address_max_age_days,
    },
    environment: session.environment,
    now,
  };
}
