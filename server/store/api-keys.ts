import type { Environment } from '../domain/api-key-format.ts';
import type { SqlClient } from './sql-client.ts';

export interface ApiKeyRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  name: string;
  key_id: string;
  secret_hash: string;
  last4: string;
  created_by: string | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface ApiKeyWithTenant extends ApiKeyRow {
  tenant_status: string;
}

export async function insertApiKey(
  sql: SqlClient,
  key: Omit<ApiKeyRow, 'revoked_at' | 'last_used_at'>,
): Promise<ApiKeyRow> {
  const rows = await sql.query<ApiKeyRow>(
    `insert into api_keys (id, tenant_id, environment, name, key_id, secret_hash, last4, created_by, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
    [
      key.id,
      key.tenant_id,
      key.environment,
      key.name,
      key.key_id,
      key.secret_hash,
      key.last4,
      key.created_by,
      key.created_at,
    ],
  );
  return rows[0] as ApiKeyRow;
}

export async function findApiKeyByKeyId(sql: SqlClient, keyId: string): Promise<ApiKeyWithTenant | null> {
  const rows = await sql.query<ApiKeyWithTenant>(
    `select k.*, t.status as tenant_status from api_keys k join tenants t on t.id = k.tenant_id where k.key_id = $1`,
    [keyId],
  );
  return rows[0] ?? null;
}

export async function listApiKeys(sql: SqlClient, tenantId: string): Promise<ApiKeyRow[]> {
  return sql.query<ApiKeyRow>(
    'select * from api_keys where tenant_id = $1 order by created_at desc, id desc',
    [tenantId],
  );
}

export async function findApiKey(sql: SqlClient, tenantId: string, id: string): Promise<ApiKeyRow | null> {
  const rows = await sql.query<ApiKeyRow>('select * from api_keys where tenant_id = $1 and id = $2', [
    tenantId,
    id,
  ]);
  return rows[0] ?? null;
}

/** Idempotent: revoking a revoked key keeps its first revocation time. */
export async function revokeApiKey(
  sql: SqlClient,
  tenantId: string,
  id: string,
  now: Date,
): Promise<ApiKeyRow | null> {
  const rows = await sql.query<ApiKeyRow>(
    `update api_keys set revoked_at = coalesce(revoked_at, $3) where tenant_id = $1 and id = $2 returning *`,
    [tenantId, id, now],
  );
  return rows[0] ?? null;
}

export async function touchApiKey(sql: SqlClient, id: string, now: Date): Promise<void> {
  await sql.query('update api_keys set last_used_at = $2 where id = $1', [id, now]);
}
