import type { AppDeps } from '../app-deps.ts';
import { attemptsPerStepOf } from '../features/tenants/attempts-per-step.ts';
import type { SqlClient } from '../store/sql-client.ts';
import { API_KEY_CACHE_TTL_MS } from './authenticate.ts';
import { TtlCache } from './ttl-cache.ts';

/**
 * The tenant's `attempts_per_step` as session create reads it: kept for as long as the API key's row
 * (and with it the tenant's status) is kept, so creating a session costs no read of the tenant's row.
 * That read was a round trip of its own on the busiest write (bench:api counts the server's CPU per
 * create, and a round trip is a third of it). `PATCH /v1/tenant` forgets the entry on the instance that
 * served it, so there the next session has the new setting; other instances take it within
 * API_KEY_CACHE_TTL_MS, as they take a suspension.
 */
const caches = new WeakMap<SqlClient, TtlCache<number>>();

function cacheOf(db: SqlClient): TtlCache<number> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new TtlCache<number>(API_KEY_CACHE_TTL_MS);
    caches.set(db, cache);
  }
  return cache;
}

/** The attempts each step of a session created now gets. */
export async function attemptsPerStepForNewSession(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenantId: string,
): Promise<number> {
  const cache = cacheOf(deps.db);
  const nowMs = deps.clock.now().getTime();
  const known = cache.get(tenantId, nowMs);
  if (known !== undefined) return known;
  const attempts = await attemptsPerStepOf(deps.db, tenantId);
  cache.set(tenantId, attempts, nowMs);
  return attempts;
}

/** After the tenant's settings changed here: the next session reads them again. */
export function forgetAttemptsPerStep(deps: Pick<AppDeps, 'db'>, tenantId: string): void {
  cacheOf(deps.db).delete(tenantId);
}
