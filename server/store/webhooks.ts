import type { Environment } from '../domain/api-key-format.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

export type WebhookStatus = 'active' | 'disabled';

export interface WebhookRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  url: string;
  events: string[];
  description: string | null;
  status: WebhookStatus;
  /** Why the service disabled it (`endpoint_gone` after a 410); null when the tenant did, or active. */
  disabled_reason: string | null;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export type NewWebhook = Pick<
  WebhookRow,
  'id' | 'tenant_id' | 'environment' | 'url' | 'events' | 'description' | 'secret_enc' | 'created_at'
>;

export async function insertWebhook(sql: SqlClient, webhook: NewWebhook): Promise<WebhookRow> {
  const rows = await sql.query<WebhookRow>(
    `insert into webhooks (id, tenant_id, environment, url, events, description, status, secret_enc,
       created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $8)
     returning *`,
    [
      webhook.id,
      webhook.tenant_id,
      webhook.environment,
      webhook.url,
      JSON.stringify(webhook.events),
      webhook.description,
      webhook.secret_enc,
      webhook.created_at,
    ],
  );
  return rows[0] as WebhookRow;
}

/** A live (not deleted) webhook of the caller's tenant and environment. */
export async function findWebhook(sql: SqlClient, scope: Scope, id: string): Promise<WebhookRow | null> {
  const rows = await sql.query<WebhookRow>(
    `select * from webhooks
     where id = $1 and tenant_id = $2 and environment = $3 and deleted_at is null`,
    [id, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export interface PageOptions {
  limit: number;
  after?: { created_at: Date; id: string } | undefined;
  before?: { created_at: Date; id: string } | undefined;
}

/** Keyset pagination, newest first: `after` pages to older rows, `before` to newer ones. */
export function keysetClause(page: PageOptions, params: unknown[], alias = ''): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  if (page.after) {
    params.push(page.after.created_at, page.after.id);
    return ` and (${column('created_at')}, ${column('id')}) < ($${params.length - 1}, $${params.length})`;
  }
  if (page.before) {
    params.push(page.before.created_at, page.before.id);
    return ` and (${column('created_at')}, ${column('id')}) > ($${params.length - 1}, $${params.length})`;
  }
  return '';
}

/** Runs a keyset page query and returns rows newest first plus whether more exist in that direction. */
export async function pageOf<Row>(
  sql: SqlClient,
  baseQuery: string,
  params: unknown[],
  page: PageOptions,
): Promise<{ rows: Row[]; hasMore: boolean }> {
  const ascending = Boolean(page.before);
  params.push(page.limit + 1);
  const rows = await sql.query<Row>(
    `${baseQuery} order by created_at ${ascending ? 'asc' : 'desc'}, id ${ascending ? 'asc' : 'desc'}
     limit $${params.length}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  return { rows: ascending ? pageRows.reverse() : pageRows, hasMore };
}

export async function listWebhooks(
  sql: SqlClient,
  scope: Scope,
  page: PageOptions,
): Promise<{ rows: WebhookRow[]; hasMore: boolean }> {
  const params: unknown[] = [scope.tenantId, scope.environment];
  const where = `select * from webhooks where tenant_id = $1 and environment = $2 and deleted_at is null${keysetClause(page, params)}`;
  return pageOf<WebhookRow>(sql, where, params, page);
}

export interface WebhookChanges {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: WebhookStatus;
  disabled_reason?: string | null;
  secret_enc?: string;
  previous_secret_enc?: string | null;
  previous_secret_expires_at?: Date | null;
}

const CHANGEABLE = [
  'url',
  'events',
  'description',
  'status',
  'disabled_reason',
  'secret_enc',
  'previous_secret_enc',
  'previous_secret_expires_at',
] as const satisfies readonly (keyof WebhookChanges)[];

export async function updateWebhook(
  sql: SqlClient,
  scope: Scope,
  id: string,
  changes: WebhookChanges,
  now: Date,
): Promise<WebhookRow | null> {
  const sets = ['updated_at = $4'];
  const params: unknown[] = [id, scope.tenantId, scope.environment, now];
  for (const column of CHANGEABLE) {
    if (!(column in changes)) continue;
    const value = changes[column];
    params.push(column === 'events' ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}`);
  }
  const rows = await sql.query<WebhookRow>(
    `update webhooks set ${sets.join(', ')}
     where id = $1 and tenant_id = $2 and environment = $3 and deleted_at is null
     returning *`,
    params,
  );
  return rows[0] ?? null;
}

/**
 * Deletes softly (the delivery log keeps its reference), destroys the secrets, and fails what was still
 * queued for it.
 */
export async function deleteWebhook(sql: SqlClient, scope: Scope, id: string, now: Date): Promise<boolean> {
  const rows = await sql.query(
    `update webhooks set deleted_at = $4, status = 'disabled', updated_at = $4, secret_enc = '',
       previous_secret_enc = null, previous_secret_expires_at = null
     where id = $1 and tenant_id = $2 and environment = $3 and deleted_at is null
     returning id`,
    [id, scope.tenantId, scope.environment, now],
  );
  if (rows.length === 0) return false;
  await sql.query(
    `update webhook_deliveries set status = 'failed', next_attempt_at = null, last_error_class = 'endpoint_deleted',
       updated_at = $2
     where webhook_id = $1 and status = 'pending'`,
    [id, now],
  );
  return true;
}

/** Called by the worker on a 410: the endpoint said it is gone for good. */
export async function disableGoneWebhook(sql: SqlClient, id: string, now: Date): Promise<void> {
  await sql.query(
    `update webhooks set status = 'disabled', disabled_reason = 'endpoint_gone', updated_at = $2
     where id = $1 and status = 'active'`,
    [id, now],
  );
}

/** Active endpoints of a tenant and environment that subscribed to `type` (or to `*`) before `at`. */
export async function findSubscribedWebhooks(
  sql: SqlClient,
  scope: Scope,
  type: string,
  at: Date,
): Promise<Pick<WebhookRow, 'id'>[]> {
  return sql.query<Pick<WebhookRow, 'id'>>(
    `select id from webhooks
     where tenant_id = $1 and environment = $2 and status = 'active' and deleted_at is null
       and created_at <= $4
       and (events @> '["*"]'::jsonb or events @> jsonb_build_array($3::text))`,
    [scope.tenantId, scope.environment, type, at],
  );
}
