import type { Environment } from '../../domain/api-key-format.ts';
import type { WatchlistEntry } from '../../domain/watchlist.ts';
import { SAMPLE_WATCHLIST } from '../../domain/watchlist-sample.ts';
import type { WatchlistRow } from '../../store/watchlists.ts';

/** The screening list in force for an environment, as `GET`/`PUT /v1/watchlist` show it. */
export function toWatchlistObject(environment: Environment, row: WatchlistRow | null) {
  const source: 'tenant' | 'sample' | 'none' = row ? 'tenant' : environment === 'sandbox' ? 'sample' : 'none';
  const entries: readonly WatchlistEntry[] = row ? row.entries : source === 'sample' ? SAMPLE_WATCHLIST : [];
  return {
    object: 'watchlist' as const,
    environment,
    source,
    entries: entries.map(({ aliases, ...entry }) => (aliases ? { ...entry, aliases: [...aliases] } : entry)),
    entry_count: entries.length,
    updated_at: row?.updated_at.toISOString() ?? null,
  };
}
