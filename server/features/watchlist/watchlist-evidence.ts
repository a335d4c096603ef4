import type { Environment } from '../../domain/api-key-format.ts';
import type { ReviewEvidence } from '../../domain/review/index.ts';
import { screenWatchlist, type WatchlistEntry } from '../../domain/watchlist.ts';
import { SAMPLE_WATCHLIST } from '../../domain/watchlist-sample.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { findWatchlist } from '../../store/watchlists.ts';

/** The list a tenant name fell into when the tenant's own list gives an entry no name. */
export const TENANT_LIST_NAME = 'tenant';

/**
 * The entries to screen against: the tenant's uploaded list; in the sandbox without one, the shipped
 * fictional sample list (so integrators can rehearse a hit with "Ivan Fictitious"); in production
 * without one, none at all (null): the screening then did not run and the check says so.
 */
export async function screeningListOf(
  sql: SqlClient,
  scope: { tenantId: string; environment: Environment },
): Promise<readonly WatchlistEntry[] | null> {
  const uploaded = await findWatchlist(sql, scope);
  if (uploaded) return uploaded.entries;
  return scope.environment === 'sandbox' ? SAMPLE_WATCHLIST : null;
}

/**
 * Screens the person of a tier3 session and returns the evidence's `watchlist` member, or undefined
 * when screening is not due, cannot run (no confirmed name, no list), or the collector already did it.
 * Hits carry the list name and score only, never the listed person's name.
 */
export async function watchlistEvidenceOf(
  sql: SqlClient,
  session: Pick<SessionRow, 'tenant_id' | 'environment' | 'tier'>,
  evidence: ReviewEvidence,
): Promise<ReviewEvidence['watchlist']> {
  if (session.tier !== 'tier3' || evidence.watchlist !== undefined) return evidence.watchlist;
  const details = evidence.id_document?.details;
  if (details === undefined) return undefined;
  const entries = await screeningListOf(sql, {
    tenantId: session.tenant_id,
    environment: session.environment,
  });
  if (entries === null) return undefined;
  const screening = screenWatchlist(
    { first_name: details.first_name, last_name: details.last_name, date_of_birth: details.date_of_birth },
    entries,
  );
  return {
    hits: screening.hits.map((hit) => ({ list: hit.entry.list ?? TENANT_LIST_NAME, score: hit.score })),
  };
}
