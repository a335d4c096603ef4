import type { Environment } from '../domain/api-key-format.ts';
import type { StepName } from '../domain/session-steps.ts';
import type { QualityIssue } from '../features/evidence/quality.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';
import { forgetUnreferencedBlobs, noteDeletedBlobs } from './unreferenced-blobs.ts';

export type UploadKind = 'document' | 'liveness_frame';

/** What the analysis found, kept so a reviewer and the review see the same judgement as the end-user. */
export interface StoredQuality {
  ok: boolean;
  issues: QualityIssue[];
  sharpness: number;
  glare_ratio: number;
  brightness: number;
}

export interface UploadRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  session_id: string;
  kind: UploadKind;
  step: StepName;
  document_type: string | null;
  side: 'front' | 'back' | null;
  issuing_country_enc: string | null;
  liveness_challenge_id: string | null;
  frame_index: number | null;
  content_type: string;
  byte_size: number;
  width: number;
  height: number;
  quality: StoredQuality;
  sha256_index: string;
  blob_key: string;
  created_at: Date;
}

/** Inserts the row and, in the same transaction, takes its bytes off the unreferenced-blobs journal. */
export async function insertUpload(sql: SqlClient, upload: UploadRow): Promise<void> {
  await sql.query(
    `insert into verify_uploads (id, tenant_id, environment, session_id, kind, step, document_type, side,
       issuing_country_enc, liveness_challenge_id, frame_index, content_type, byte_size, width, height,
       quality, sha256_index, blob_key, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
    [
      upload.id,
      upload.tenant_id,
      upload.environment,
      upload.session_id,
      upload.kind,
      upload.step,
      upload.document_type,
      upload.side,
      upload.issuing_country_enc,
      upload.liveness_challenge_id,
      upload.frame_index,
      upload.content_type,
      upload.byte_size,
      upload.width,
      upload.height,
      JSON.stringify(upload.quality),
      upload.sha256_index,
      upload.blob_key,
      upload.created_at,
    ],
  );
  await forgetUnreferencedBlobs(sql, [upload.blob_key]);
}

/** A session's uploads, oldest first (the order the end-user made them). */
export async function listSessionUploads(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  kind?: UploadKind,
): Promise<UploadRow[]> {
  return sql.query<UploadRow>(
    `select * from verify_uploads
      where session_id = $1 and tenant_id = $2 and environment = $3 and ($4::text is null or kind = $4)
      order by seq`,
    [sessionId, scope.tenantId, scope.environment, kind ?? null],
  );
}

export async function findSessionUpload(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  uploadId: string,
): Promise<UploadRow | null> {
  const rows = await sql.query<UploadRow>(
    'select * from verify_uploads where id = $1 and session_id = $2 and tenant_id = $3 and environment = $4',
    [uploadId, sessionId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export async function countDocumentUploads(sql: SqlClient, sessionId: string): Promise<number> {
  const rows = await sql.query<{ count: number }>(
    `select count(*)::int as count from verify_uploads where session_id = $1 and kind = 'document'`,
    [sessionId],
  );
  return rows[0]?.count ?? 0;
}

/** Whether any of these image digests was uploaded in another session of the tenant and environment. */
export async function imageDigestUsedElsewhere(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  digests: readonly string[],
): Promise<boolean> {
  if (digests.length === 0) return false;
  const rows = await sql.query(
    `select 1 from verify_uploads
      where tenant_id = $1 and environment = $2 and session_id <> $3 and sha256_index = any($4::text[])
      limit 1`,
    [scope.tenantId, scope.environment, sessionId, digests],
  );
  return rows.length > 0;
}

/**
 * Deletes a session's upload rows and returns their blob keys, for the caller to delete the bytes; the
 * keys are journaled as unreferenced in the same transaction, so a crash before the bytes are gone
 * leaves them to the retention sweeper.
 */
export async function deleteSessionUploads(sql: SqlClient, sessionId: string): Promise<string[]> {
  const rows = await sql.query<{ blob_key: string }>(
    'delete from verify_uploads where session_id = $1 returning blob_key',
    [sessionId],
  );
  const keys = rows.map((row) => row.blob_key);
  await noteDeletedBlobs(sql, keys);
  return keys;
}
