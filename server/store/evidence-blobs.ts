import type { SqlClient } from './sql-client.ts';

/** The size of one `evidence_blob_chunks` row: small enough for any driver, large enough to be few. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/**
 * Stores `bytes` under `key` in one transaction, replacing any previous blob: readers see the old bytes
 * or the new ones, never a mix. The upsert locks the blob's row, so two writers of one key take turns
 * and the last one wins (a plain delete-then-insert would let the second fail on the primary key).
 */
export async function putEvidenceBlob(
  db: SqlClient,
  key: string,
  tenantId: string,
  bytes: Uint8Array,
): Promise<void> {
  const chunkCount = Math.ceil(bytes.length / BLOB_CHUNK_BYTES);
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into evidence_blobs (key, tenant_id, byte_length, chunk_count) values ($1, $2, $3, $4)
       on conflict (key) do update
         set tenant_id = excluded.tenant_id, byte_length = excluded.byte_length,
             chunk_count = excluded.chunk_count, stored_at = now()`,
      [key, tenantId, bytes.length, chunkCount],
    );
    await tx.query('delete from evidence_blob_chunks where key = $1', [key]);
    for (let chunk = 0; chunk < chunkCount; chunk += 1) {
      const start = chunk * BLOB_CHUNK_BYTES;
      await tx.query('insert into evidence_blob_chunks (key, chunk, bytes) values ($1, $2, $3)', [
        key,
        chunk,
        bytes.subarray(start, Math.min(start + BLOB_CHUNK_BYTES, bytes.length)),
      ]);
    }
  });
}

/**
 * The blob's bytes, or null when there is none. One statement, so one snapshot: a concurrent replace is
 * seen whole or not at all. A blob whose chunks do not add up (which no write here leaves) throws
 * rather than returning a truncated value.
 */
export async function getEvidenceBlob(db: SqlClient, key: string): Promise<Uint8Array | null> {
  const rows = await db.query<{
    byte_length: number;
    chunk_count: number;
    chunk: number | null;
    bytes: Uint8Array | null;
  }>(
    `select b.byte_length, b.chunk_count, c.chunk, c.bytes
       from evidence_blobs b left join evidence_blob_chunks c on c.key = b.key
      where b.key = $1
      order by c.chunk`,
    [key],
  );
  const head = rows[0];
  if (!head) return null;
  // An empty blob has no chunks: its one row comes from the left join with nulls.
  const chunks = head.chunk === null ? [] : rows;
  const length = chunks.reduce((sum, row) => sum + (row.bytes?.length ?? 0), 0);
  if (
    chunks.length !== head.chunk_count ||
    chunks.some((row, index) => row.chunk !== index) ||
    length !== head.byte_length
  ) {
    throw new Error('Evidence blob is incomplete: its chunks do not add up to its recorded length.');
  }
  const result = new Uint8Array(length);
  let offset = 0;
  for (const row of chunks) {
    result.set(row.bytes as Uint8Array, offset);
    offset += (row.bytes as Uint8Array).length;
  }
  return result;
}

/** Removes the blob and its chunks; a missing key is no error. */
export async function deleteEvidenceBlob(db: SqlClient, key: string): Promise<void> {
  await db.query('delete from evidence_blobs where key = $1', [key]);
}
