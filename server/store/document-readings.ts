import type { Environment } from '../domain/api-key-format.ts';
import type { DocumentReadingSummary } from '../features/evidence/document-reading-record.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/** One upload's reading: the encrypted record and its non-personal summary (see migration 006). */
export interface DocumentReadingRow {
  upload_id: string;
  tenant_id: string;
  environment: Environment;
  session_id: string;
  step: string;
  reading_enc: string;
  summary: DocumentReadingSummary;
  document_number_index: string | null;
  created_at: Date;
}

export async function insertDocumentReading(sql: SqlClient, row: DocumentReadingRow): Promise<void> {
  await sql.query(
    `insert into document_readings (upload_id, tenant_id, environment, session_id, step, reading_enc, summary,
       document_number_index, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.upload_id,
      row.tenant_id,
      row.environment,
      row.session_id,
      row.step,
      row.reading_enc,
      JSON.stringify(row.summary),
      row.document_number_index,
      row.created_at,
    ],
  );
}

/** A session's readings, keyed by upload id (an upload has at most one). */
export async function listSessionDocumentReadings(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
): Promise<Map<string, DocumentReadingRow>> {
  const rows = await sql.query<DocumentReadingRow>(
    'select * from document_readings where session_id = $1 and tenant_id = $2 and environment = $3',
    [sessionId, scope.tenantId, scope.environment],
  );
  return new Map(rows.map((row) => [row.upload_id, row]));
}

/**
 * Whether the document number (by its blind index) was read off a document in a session of the tenant and
 * environment that belongs to another `external_user_reference`, or to none: the same rule as for typed
 * numbers (`documentNumberUsedByOtherReference`), for sessions whose details came from the document.
 */
export async function documentNumberReadByOtherReference(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  documentNumberIndex: string,
  externalUserRefIndex: string | null,
): Promise<boolean> {
  const rows = await sql.query(
    `select 1 from document_readings r join sessions s on s.id = r.session_id
      where r.tenant_id = $1 and r.environment = $2 and r.document_number_index = $3 and r.session_id <> $4
        and ($5::text is null or s.external_user_ref_index is null or s.external_user_ref_index <> $5)
      limit 1`,
    [scope.tenantId, scope.environment, documentNumberIndex, sessionId, externalUserRefIndex],
  );
  return rows.length > 0;
}
