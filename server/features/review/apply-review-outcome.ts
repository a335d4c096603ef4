import type { AppDeps } from '../../app-deps.ts';
import {
  type Check,
  type Decision,
  RETRYABLE_REASON_CODES,
  type Reason,
  type ReviewResult,
} from '../../domain/review/index.ts';
import { enrollFaceReference } from '../evidence/enrolled-reference.ts';
import { recordApprovedIdentity } from '../identities/record-approved-identity.ts';
import { indexSessionNames } from '../review-queue/name-tokens.ts';
import { transitionSession } from '../sessions/transition-session.ts';
import { countResubmission, type DecidedBy, insertDecision } from '../../store/decisions.ts';
import { finishOpenReviewJobOfSession } from '../../store/jobs.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { DecisionEvidence } from './evidence-collector.ts';
import { reopenSteps, stepsToRecapture } from './resubmission.ts';

export interface DecisionToApply {
  decision: Decision;
  reasons: Reason[];
  checks: Check[];
  decidedBy: DecidedBy;
  reviewerId?: string | null;
  /** A reviewer's note, already encrypted. */
  noteEnc?: string | null;
}

type Deps = Pick<AppDeps, 'ids' | 'clock' | 'cipher'>;

/**
 * Writes a decision for a locked `processing` (automated, simulated) or `review_required` (reviewer)
 * session, all in the caller's transaction: the identity on approval (so `session.approved` carries its
 * id) with its enrolled face reference, the transition with its event, the decision record, the re-verification outcome, and the end of
 * any open review job, so the worker never decides a session twice; and the blind index of the names the
 * review read. The identity and the face reference come from `evidence`, the one read of the session's
 * evidence the decision was made on: nothing is read or decrypted again here.
 */
export async function applyDecision(
  tx: SqlClient,
  deps: Deps,
  session: SessionRow,
  toApply: DecisionToApply,
  evidence: DecisionEvidence,
): Promise<SessionRow> {
  const now = deps.clock.now();
  // The identity is linked first: the transition's `returning *` row, which its event reports, then
  // carries `identity_id`.
  if (toApply.decision === 'approved') {
    const identity = await recordApprovedIdentity(
      tx,
      deps,
      session,
      evidence.review,
      evidence.documentDetails,
    );
    // The best liveness frame becomes the face a later re-verification is compared with.
    if (evidence.review.liveness?.accepted === true)
      await enrollFaceReference(tx, deps, identity.id, evidence.faceReference);
  }
  const trigger = session.status === 'review_required' ? 'reviewed' : 'decided';
  const updated = await transitionSession(tx, deps, session, toApply.decision, trigger, {
    decision: toApply.decision,
    decided_at: now,
    last_error: null,
  });
  await insertDecision(tx, {
    tenant_id: session.tenant_id,
    environment: session.environment,
    session_id: session.id,
    outcome: toApply.decision,
    decided_by: toApply.decidedBy,
    reviewer_id: toApply.reviewerId ?? null,
    reasons: toApply.reasons,
    checks: toApply.checks,
    note_enc: toApply.noteEnc ?? null,
    created_at: now,
  });
  // A linked re-verification request settles inside transitionSession, for every terminal move.
  await finishOpenReviewJobOfSession(tx, session.id, toApply.decision, now);
  // The names become searchable (as keyed digests) once a review has read them.
  await indexSessionNames(tx, deps, session.id, evidence.review);
  return updated;
}

/**
 * Sends a locked `processing` session back to `collecting` for a fixable problem (API.md §4): the
 * affected steps are pending again, `last_error` says why, the review's findings are kept for the result,
 * and `session.resubmission_requested` is written.
 */
export async function requestResubmission(
  tx: SqlClient,
  deps: Deps,
  session: SessionRow,
  result: ReviewResult,
): Promise<SessionRow> {
  const now = deps.clock.now();
  // The recapturable reason, not the `sandbox_forced` marker a simulation puts first.
  const first = result.reasons.find((reason) => RETRYABLE_REASON_CODES.has(reason.code)) ?? result.reasons[0];
  await countResubmission(tx, session.id);
  const updated = await transitionSession(tx, deps, session, 'collecting', 'resubmission_requested', {
    steps: reopenSteps(session.steps, stepsToRecapture(result.checks, session.steps)),
    last_error: first
      ? { code: first.code, reason: first.message }
      : { code: 'document_unreadable', reason: 'A document must be captured again.' },
  });
  await insertDecision(tx, {
    tenant_id: session.tenant_id,
    environment: session.environment,
    session_id: session.id,
    outcome: 'resubmission_requested',
    decided_by: 'automated',
    reviewer_id: null,
    reasons: result.reasons,
    checks: result.checks,
    note_enc: null,
    created_at: now,
  });
  await finishOpenReviewJobOfSession(tx, session.id, 'resubmission_requested', now);
  return updated;
}
