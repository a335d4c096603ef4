import type { AppDeps } from '../../app-deps.ts';
import { decide, type ReviewEvidence, type ReviewResult } from '../../domain/review/index.ts';
import { findTenant } from '../../store/tenants.ts';
import type { SessionRow } from '../../store/sessions.ts';
import { watchlistEvidenceOf } from '../watchlist/watchlist-evidence.ts';
import { evidenceCollectorOf } from './evidence-collector.ts';
import { type ForcedOutcome, reviewInputOf } from './review-input-of-session.ts';

export interface SessionReview {
  evidence: ReviewEvidence;
  result: ReviewResult;
}

/**
 * Runs the automated review of one session without writing anything: collects the evidence, screens the
 * watchlist, applies the tenant's policy and calls the pure `decide`. Reads only, outside any transaction,
 * so slow evidence reading never holds a lock.
 */
export async function reviewSession(
  deps: AppDeps,
  session: SessionRow,
  forced?: ForcedOutcome,
): Promise<SessionReview> {
  const tenant = await findTenant(deps.db, session.tenant_id);
  if (!tenant) throw new Error(`tenant of session ${session.id} is missing`);
  const collected = await evidenceCollectorOf(deps)(deps.db, deps, session);
  const watchlist = await watchlistEvidenceOf(deps.db, session, collected);
  const evidence: ReviewEvidence = watchlist === undefined ? collected : { ...collected, watchlist };
  const result = decide(reviewInputOf(session, tenant, evidence, deps.clock.now(), forced));
  return { evidence, result };
}
