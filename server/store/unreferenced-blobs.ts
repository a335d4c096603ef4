import type { SqlClient } from './sql-client.ts';

/**
 * The journal of blob keys whose bytes may exist with no row naming them (migration 011): written before
 * an image's bytes are stored, removed with the upload row's insert; written with the rows' deletion at
 * retention, removed once the bytes are gone. What a crash leaves here, the retention sweeper deletes.
 */

/** Journals `key` before its bytes are stored (its own commit, so it survives a crash mid-write). */
export async function noteUnreferencedBlob(sql: SqlClient, key: string, since: Date): Promise<void> {
  await sql.query(
    'insert into unreferenced_blobs (key, since) values ($1, $2) on conflict (key) do nothing',
    [key, since],
  );
}

/**
 * Journals keys whose rows are being deleted, as due at once: no writer can still be on its way to them.
 * Call in the transaction that deletes the rows.
 */
export async function noteDeletedBlobs(sql: SqlClient, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await sql.query(
    `insert into unreferenced_blobs (key, since) select unnest($1::text[]), '-infinity'
     on conflict (key) do update set since = '-infinity'`,
    [keys],
  );
}

/** Removes keys from the journal: a row now names them, or their bytes are gone. */
export async function forgetUnreferencedBlobs(sql: SqlClient, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await sql.query('delete from unreferenced_blobs where key = any($1::text[])', [keys]);
}

/** Up to `limit` journaled keys older than `before`: writes that no request can still finish. */
export async function findUnreferencedBlobsBefore(
  sql: SqlClient,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await sql.query<{ key: string }>(
    'select key from unreferenced_blobs where since < $1 order by since limit $2',
    [before, limit],
  );
  return rows.map((row) => row.key);
}
