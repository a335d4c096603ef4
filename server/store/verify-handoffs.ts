import type { Environment } from '../domain/api-key-format.ts';
import type { SqlClient } from './sql-client.ts';

export interface VerifyHandoffRow {
  token_hash: string;
  tenant_id: string;
  environment: Environment;
  session_id: string;
  parent_token_hash: string;
  expires_at: Date;
  created_at: Date;
}

export async function insertVerifyHandoff(sql: SqlClient, row: VerifyHandoffRow): Promise<void> {
  await sql.query(
    `insert into verify_handoffs (token_hash, tenant_id, environment, session_id, parent_token_hash,
       expires_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.token_hash,
      row.tenant_id,
      row.environment,
      row.session_id,
      row.parent_token_hash,
      row.expires_at,
      row.created_at,
    ],
  );
}

/** Looked up by the token's hash alone: the token is the credential, scope comes from the row. */
export async function findVerifyHandoff(sql: SqlClient, tokenHash: string): Promise<VerifyHandoffRow | null> {
  const rows = await sql.query<VerifyHandoffRow>('select * from verify_handoffs where token_hash = $1', [
    tokenHash,
  ]);
  return rows[0] ?? null;
}

export async function deleteVerifyHandoffs(sql: SqlClient, sessionId: string): Promise<void> {
  await sql.query('delete from verify_handoffs where session_id = $1', [sessionId]);
}
