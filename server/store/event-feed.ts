import type { EventRow } from './events.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';
import { keysetClause, type PageOptions, pageOf } from './webhooks.ts';

/** Reads of the outbox for `GET /v1/events`: scoped, and never older than `since` (30-day retention). */
export async function findEvent(
  sql: SqlClient,
  scope: Scope,
  id: string,
  since: Date,
): Promise<EventRow | null> {
  const rows = await sql.query<EventRow>(
    'select * from events where id = $1 and tenant_id = $2 and environment = $3 and created_at >= $4',
    [id, scope.tenantId, scope.environment, since],
  );
  return rows[0] ?? null;
}

export interface EventFilters {
  since: Date;
  types?: string[] | undefined;
  sessionId?: string | undefined;
  identityId?: string | undefined;
}

export async function listEvents(
  sql: SqlClient,
  scope: Scope,
  filters: EventFilters,
  page: PageOptions,
): Promise<{ rows: EventRow[]; hasMore: boolean }> {
  const params: unknown[] = [scope.tenantId, scope.environment, filters.since];
  let where = 'select * from events where tenant_id = $1 and environment = $2 and created_at >= $3';
  if (filters.types?.length) {
    params.push(filters.types);
    where += ` and type = any($${params.length}::text[])`;
  }
  if (filters.sessionId) {
    params.push(filters.sessionId);
    where += ` and session_id = $${params.length}`;
  }
  if (filters.identityId) {
    params.push(filters.identityId);
    where += ` and identity_id = $${params.length}`;
  }
  where += keysetClause(page, params);
  return pageOf<EventRow>(sql, where, params, page);
}
