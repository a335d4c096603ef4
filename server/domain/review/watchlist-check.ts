import { type Check, failed, inconclusive, passed } from './checks.ts';
import type { ReviewInput } from './review-input.ts';

/**
 * A hit counts unless its score is a number below the tenant's threshold: a hit with a missing or
 * malformed score is kept, because dropping a real sanctions match is worse than one extra review.
 *
 * @example
 * // watchlist: { hits: [{ list: 'sanctions', score: 0.93 }] }
 * checkWatchlist(input) // { status: 'failed', reason_codes: ['watchlist_hit'], details: { hits: 1, highest_score: 0.93 } }
 */
export function checkWatchlist({ evidence, policy }: ReviewInput): Check {
  if (evidence.watchlist === undefined) return inconclusive('watchlist', 'lookup_not_run');
  const minScore = policy.watchlist_min_score ?? 0;
  const hits = evidence.watchlist.hits.filter((hit) => !(hit.score < minScore));
  if (hits.length === 0) return passed('watchlist');
  const scores = hits.map((hit) => hit.score).filter(Number.isFinite);
  const details: Record<string, number> = { hits: hits.length };
  if (scores.length > 0) details['highest_score'] = Math.max(...scores);
  return failed('watchlist', ['watchlist_hit'], details);
}
