import type { Environment } from '../domain/api-key-format.ts';
import type { SqlClient } from './sql-client.ts';
import type { Scope } from './sessions.ts';

export type DetailsStep = 'id_document' | 'business_details';

export interface VerifyDetailsRow {
  session_id: string;
  step: DetailsStep;
  tenant_id: string;
  environment: Environment;
  details_enc: string;
  mrz_enc: string | null;
  document_number_index: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Inserts or replaces the confirmed details of one step: the end-user may correct them while collecting. */
export async function upsertVerifyDetails(
  sql: SqlClient,
  row: Omit<VerifyDetailsRow, 'created_at' | 'updated_at'>,
  now: Date,
): Promise<void> {
  await sql.query(
    `insert into verify_details (session_id, step, tenant_id, environment, details_enc, mrz_enc,
       document_number_index, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     on conflict (session_id, step) do update set details_enc = excluded.details_enc,
       mrz_enc = excluded.mrz_enc, document_number_index = excluded.document_number_index,
       updated_at = excluded.updated_at`,
    [
      row.session_id,
      row.step,
      row.tenant_id,
      row.environment,
      row.details_enc,
      row.mrz_enc,
      row.document_number_index,
      now,
    ],
  );
}

export async function listVerifyDetails(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
): Promise<VerifyDetailsRow[]> {
  return sql.query<VerifyDetailsRow>(
    'select * from verify_details where session_id = $1 and tenant_id = $2 and environment = $3',
    [sessionId, scope.tenantId, scope.environment],
  );
}

/**
 * Whether the document number (by its blind index) was confirmed in a session of the tenant and
 * environment that belongs to another `external_user_reference`, or to none (an anonymous session
 * cannot be shown to be the same user).
 */
export async function documentNumberUsedByOtherReference(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  documentNumberIndex: string,
  externalUserRefIndex: string | null,
): Promise<boolean> {
  const rows = await sql.query(
    `select 1 from verify_details d join sessions s on s.id = d.session_id
      where d.tenant_id = $1 and d.environment = $2 and d.document_number_index = $3 and d.session_id <> $4
        and ($5::text is null or s.external_user_ref_index is null or s.external_user_ref_index <> $5)
      limit 1`,
    [scope.tenantId, scope.environment, documentNumberIndex, sessionId, externalUserRefIndex],
  );
  return rows.length > 0;
}

export async function deleteVerifyDetails(sql: SqlClient, sessionId: string): Promise<void> {
  await sql.query('delete from verify_details where session_id = $1', [sessionId]);
}
