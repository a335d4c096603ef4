import type { AppDeps } from '../../app-deps.ts';
import { type Check, type ReasonCode, reasonFor } from '../../domain/review/index.ts';
import { ApiError } from '../../errors/api-error.ts';
import { readSession } from '../sessions/transition-session.ts';
import { findLatestDecision } from '../../store/decisions.ts';
import { deleteClaim } from '../../store/review-claims.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { findSession, findSessionForUpdate, type Scope, type SessionRow } from '../../store/sessions.ts';
import { assertNotClaimedByOther } from '../review-queue/review-claims.ts';
import { applyDecision } from './apply-review-outcome.ts';
import { collectDecisionEvidence, noDecisionEvidence } from './evidence-collector.ts';

export interface PersonReview {
  decision: 'approve' | 'reject';
  reasonCodes?: readonly ReasonCode[];
  note?: string;
  reviewerId: string;
}

/** Context of an encrypted reviewer note: bound to its session. */
export const reviewNoteContext = (sessionId: string) => `decision.note:${sessionId}`;

/**
 * A person decides a `review_required` session (API.md §4): approve (vaulting the identity) or reject
 * (`manual_rejection` plus any codes the reviewer names). The automated checks stay on the result, so the
 * tenant still sees what was examined. Any other status is 409 `invalid_state_transition`; a session
 * someone else has claimed is 409 `review_claimed`.
 */
export async function reviewByPerson(
  deps: AppDeps,
  scope: Scope,
  sessionId: string,
  review: PersonReview,
  /** Runs last in the transaction with the decided row: the caller stores its idempotent answer. */
  beforeCommit: (tx: SqlClient, decided: SessionRow) => Promise<void> = async () => {},
): Promise<SessionRow> {
  const before = await readSession(
    deps.db,
    deps,
    scope,
    sessionId,
    await findSession(deps.db, scope, sessionId),
  );
  assertReviewable(before);
  // Evidence is read outside the transaction; a session in review can no longer change it.
  const evidence =
    review.decision === 'approve' ? await collectDecisionEvidence(deps, before) : noDecisionEvidence();
  const checks: Check[] = (await findLatestDecision(deps.db, scope, sessionId))?.checks ?? [];
  const noteEnc = review.note ? await deps.cipher.encrypt(review.note, reviewNoteContext(sessionId)) : null;
  return deps.db.transaction(async (tx) => {
    const locked = await findSessionForUpdate(tx, scope, sessionId);
    if (!locked)
      throw new ApiError('resource_missing', `No session \`${sessionId}\` exists in this environment.`);
    assertReviewable(locked);
    // Another person working on it (a claim or an assignment) must be taken over first; the decision
    // ends the claim.
    await assertNotClaimedByOther(tx, scope, sessionId, review.reviewerId, deps.clock.now());
    await deleteClaim(tx, scope, sessionId);
    const codes: ReasonCode[] =
      review.decision === 'reject'
        ? ['manual_rejection', ...(review.reasonCodes ?? []).filter((code) => code !== 'manual_rejection')]
        : [];
    const decided = await applyDecision(
      tx,
      deps,
      locked,
      {
        decision: review.decision === 'approve' ? 'approved' : 'rejected',
        reasons: [...new Set(codes)].map(reasonFor),
        checks,
        decidedBy: 'reviewer',
        reviewerId: review.reviewerId,
        noteEnc,
      },
      evidence,
    );
    await beforeCommit(tx, decided);
    return decided;
  });
}

function assertReviewable(session: SessionRow): void {
  if (session.status !== 'review_required') {
    throw new ApiError(
      'invalid_state_transition',
      `Only a session in \`review_required\` can be reviewed; this one is \`${session.status}\`.`,
      { extensions: { current_status: session.status } },
    );
  }
}
