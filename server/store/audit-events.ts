import type { AuditAction, AuditDetails, AuditTargetType } from '../features/audit/audit-actions.ts';
import type { Environment } from '../domain/api-key-format.ts';
import type { ListPosition } from '../http/list-page.ts';
import type { Page } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/** Who acted: a console user, an API key, or nobody known (a failed login with an address no account has). */
export type AuditActorType = 'user' | 'api_key' | 'unknown_account';

export interface AuditEventRow {
  id: string;
  /** Null only for a failed login with an address that has no account: it belongs to no tenant. */
  tenant_id: string | null;
  /** Null for tenant-wide actions (users, logins); else the environment the credential acted in. */
  environment: Environment | null;
  action: AuditAction;
  actor_type: AuditActorType;
  actor_id: string | null;
  target_type: AuditTargetType | null;
  target_id: string | null;
  request_id: string | null;
  ip_prefix: string | null;
  /** Codes, counts, field names and flags only (see record-audit-event.ts). */
  details: AuditDetails;
  created_at: Date;
}

/**
 * Appends one audit event. There is deliberately no update function in this file, and the table's trigger
 * refuses an UPDATE (migration 008): the log is append-only.
 */
export async function insertAuditEvent(sql: SqlClient, event: AuditEventRow): Promise<void> {
  await insertAuditEvents(sql, [event]);
}

/**
 * Appends several audit events in one statement: one round trip whatever their number (a failed login
 * recorded in each tenant of its address costs what one costs, so its timing does not count them).
 */
export async function insertAuditEvents(sql: SqlClient, events: readonly AuditEventRow[]): Promise<void> {
  if (events.length === 0) return;
  const params: unknown[] = [];
  const rows = events.map((event) => {
    const first = params.length + 1;
    params.push(
      event.id,
      event.tenant_id,
      event.environment,
      event.action,
      event.actor_type,
      event.actor_id,
      event.target_type,
      event.target_id,
      event.request_id,
      event.ip_prefix,
      JSON.stringify(event.details),
      event.created_at,
    );
    return `(${Array.from({ length: 12 }, (_, index) => `$${first + index}`).join(', ')})`;
  });
  await sql.query(
    `insert into audit_events (id, tenant_id, environment, action, actor_type, actor_id, target_type,
       target_id, request_id, ip_prefix, details, created_at)
     values ${rows.join(', ')}`,
    params,
  );
}

/** A tenant's audit event, for the list cursor; another tenant's is as unknown as a made-up id. */
export async function findAuditEvent(
  sql: SqlClient,
  tenantId: string,
  id: string,
): Promise<ListPosition | null> {
  const rows = await sql.query<ListPosition>(
    'select id, created_at from audit_events where tenant_id = $1 and id = $2',
    [tenantId, id],
  );
  return rows[0] ?? null;
}

export interface AuditEventFilters {
  actions?: string[] | undefined;
  actorId?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  environment?: Environment | undefined;
  createdGte?: Date | undefined;
  createdLte?: Date | undefined;
}

/** A tenant's audit events, newest first, one extra row fetched to know whether more exist. */
export async function listAuditEvents(
  sql: SqlClient,
  tenantId: string,
  filters: AuditEventFilters,
  page: Page,
): Promise<{ rows: AuditEventRow[]; hasMore: boolean }> {
  const where: string[] = ['tenant_id = $1'];
  const params: unknown[] = [tenantId];
  const add = (clause: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filters.actions?.length) add((p) => `action = any(${p}::text[])`, filters.actions);
  if (filters.actorId) add((p) => `actor_id = ${p}`, filters.actorId);
  if (filters.targetType) add((p) => `target_type = ${p}`, filters.targetType);
  if (filters.targetId) add((p) => `target_id = ${p}`, filters.targetId);
  if (filters.environment) add((p) => `environment = ${p}`, filters.environment);
  if (filters.createdGte) add((p) => `created_at >= ${p}`, filters.createdGte);
  if (filters.createdLte) add((p) => `created_at <= ${p}`, filters.createdLte);

  let order = 'created_at desc, id desc';
  if (page.after) {
    params.push(page.after.created_at, page.after.id);
    where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
  } else if (page.before) {
    params.push(page.before.created_at, page.before.id);
    where.push(`(created_at, id) > ($${params.length - 1}, $${params.length})`);
    order = 'created_at asc, id asc';
  }
  params.push(page.limit + 1);
  const rows = await sql.query<AuditEventRow>(
    `select * from audit_events where ${where.join(' and ')} order by ${order} limit $${params.length}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  return { rows: page.before ? pageRows.reverse() : pageRows, hasMore };
}

/**
 * Deletes up to `limit` audit events created before `cutoff`, oldest first; returns how many went. The
 * database's own clock bounds it too (rows younger than 365 days by `now()` are never selected), and the
 * table's trigger refuses to delete such a row anyway: a wrong cutoff cannot lose recent history. The ids
 * are read into an array first so the delete probes the primary key (with `id in (subquery)` the planner
 * hashed the whole table at 1 M rows: docs/benchmarks.md, "Scale").
 */
export async function purgeAuditEventsBefore(sql: SqlClient, cutoff: Date, limit: number): Promise<number> {
  const rows = await sql.query(
    `delete from audit_events where id = any(array(
       select id from audit_events
        where created_at < $1 and created_at < now() - interval '365 days'
        order by created_at limit $2))
     returning 1`,
    [cutoff, limit],
  );
  return rows.length;
}
