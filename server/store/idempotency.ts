import type { SqlClient } from './sql-client.ts';

export interface IdempotencyScope {
  tenantId: string;
  environment: string;
  credentialId: string;
  key: string;
}

export interface IdempotencyRow {
  fingerprint: string;
  status: 'in_progress' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
}

/**
 * Claims a key. Returns null when this request now owns it, else the existing record. A claim left
 * `in_progress` longer than `staleBefore` (its process died) may be taken over, so a crash never
 * wedges a key for a whole day.
 */
export async function claimIdempotencyKey(
  sql: SqlClient,
  scope: IdempotencyScope,
  fingerprint: string,
  now: Date,
  expiredBefore: Date,
  staleBefore: Date,
): Promise<IdempotencyRow | null> {
  const claimed = await sql.query(
    `insert into idempotency_keys (tenant_id, environment, credential_id, key, fingerprint, status, created_at)
     values ($1, $2, $3, $4, $5, 'in_progress', $6)
     on conflict (tenant_id, environment, credential_id, key) do update
       set fingerprint = excluded.fingerprint, status = 'in_progress', response_status = null,
           response_body = null, created_at = excluded.created_at
       where idempotency_keys.created_at < $7
          or (idempotency_keys.status = 'in_progress' and idempotency_keys.created_at < $8)
     returning 1`,
    [
      scope.tenantId,
      scope.environment,
      scope.credentialId,
      scope.key,
      fingerprint,
      now,
      expiredBefore,
      staleBefore,
    ],
  );
  if (claimed.length > 0) return null;
  const rows = await sql.query<IdempotencyRow>(
    `select fingerprint, status, response_status, response_body, created_at from idempotency_keys
      where tenant_id = $1 and environment = $2 and credential_id = $3 and key = $4`,
    [scope.tenantId, scope.environment, scope.credentialId, scope.key],
  );
  return rows[0] ?? null;
}

export async function completeIdempotencyKey(
  sql: SqlClient,
  scope: IdempotencyScope,
  status: number,
  body: string,
): Promise<void> {
  await sql.query(
    `update idempotency_keys set status = 'done', response_status = $5, response_body = $6
      where tenant_id = $1 and environment = $2 and credential_id = $3 and key = $4`,
    [scope.tenantId, scope.environment, scope.credentialId, scope.key, status, body],
  );
}

/** Lets a later retry run again when the first attempt died before producing any answer. */
export async function releaseIdempotencyKey(sql: SqlClient, scope: IdempotencyScope): Promise<void> {
  await sql.query(
    `delete from idempotency_keys where tenant_id = $1 and environment = $2 and credential_id = $3 and key = $4
       and status = 'in_progress'`,
    [scope.tenantId, scope.environment, scope.credentialId, scope.key],
  );
}

export async function deleteExpiredIdempotencyKeys(sql: SqlClient, before: Date): Promise<void> {
  await sql.query('delete from idempotency_keys where created_at < $1', [before]);
}
