import type { AppDeps } from '../../app-deps.ts';
import { decide, type ReviewEvidence, type ReviewResult } from '../../domain/review/index.ts';
import { findTenant } from '../../store/tenants.ts';
import type { SessionRow } from '../../store/sessions.ts';
import { watchlistEvidenceOf } from '../watchlist/watchlist-evidence.ts';
import { collectDecisionEvidence, type DecisionEvidence } from './evidence-collector.ts';
import { type ForcedOutcome, reviewInputOf } from './review-input-of-session.ts';

export interface SessionReview {
  /** The one read of the evidence the result was decided on, with the watchlist screening: for `applyDecision`. */
  evidence: DecisionEvidence;
  result: ReviewResult;
}

/**
 * Runs the automated review of one session without writing anything: collects the evidence (once, see
 * `collectDecisionEvidence`), screens the watchlist, applies the tenant's policy and calls the pure
 * `decide`. Reads only, outside any transaction, so slow evidence reading never holds a lock.
 */
export async function reviewSession(
  deps: AppDeps,
  session: SessionRow,
  forced?: ForcedOutcome,
): Promise<SessionReview> {
  const tenant = await findTenant(deps.db, session.tenant_id);
  if (!tenant) throw new Error(`tenant of session ${session.id} is missing`);
  const collected = await collectDecisionEvidence(deps, session);
  const watchlist = await watchlistEvidenceOf(deps.db, session, collected.review);
  const review: ReviewEvidence =
    watchlist === undefined ? collected.review : { ...collected.review, watchlist };
  const result = decide(reviewInputOf(session, tenant, review, deps.clock.now(), forced));
  return { evidence: { ...collected, review }, result };
}
