import type { Environment } from '../domain/api-key-format.ts';
import type { WatchlistEntry } from '../domain/watchlist.ts';
import type { SqlClient } from './sql-client.ts';

export interface WatchlistRow {
  tenant_id: string;
  environment: Environment;
  entries: WatchlistEntry[];
  updated_at: Date;
}

type Scope = { tenantId: string; environment: Environment };

/** Replaces the tenant's list in this environment as a whole. */
export async function replaceWatchlist(
  sql: SqlClient,
  scope: Scope,
  entries: readonly WatchlistEntry[],
  now: Date,
): Promise<WatchlistRow> {
  const rows = await sql.query<WatchlistRow>(
    `insert into watchlists (tenant_id, environment, entries, updated_at) values ($1, $2, $3, $4)
     on conflict (tenant_id, environment) do update set entries = excluded.entries, updated_at = excluded.updated_at
     returning *`,
    [scope.tenantId, scope.environment, JSON.stringify(entries), now],
  );
  return rows[0] as WatchlistRow;
}

/** The tenant's list, or null when it never uploaded one in this environment. */
export async function findWatchlist(sql: SqlClient, scope: Scope): Promise<WatchlistRow | null> {
  const rows = await sql.query<WatchlistRow>(
    'select * from watchlists where tenant_id = $1 and environment = $2',
    [scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}
