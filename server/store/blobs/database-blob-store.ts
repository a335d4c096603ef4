import { deleteEvidenceBlob, getEvidenceBlob, putEvidenceBlob } from '../evidence-blobs.ts';
import type { SqlClient } from '../sql-client.ts';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

/**
 * A {@link BlobStore} in the app's own database (`IDV_BLOB_STORE=postgres`): tables `evidence_blobs` and
 * `evidence_blob_chunks` (migration 009), bytes in 1 MiB chunks. Every instance that shares the
 * database sees every blob, with no second service to run. Web-standard: the same code on PostgreSQL
 * and on PGlite. The app stores only ciphertext here (see `encryptedBlobStore`).
 *
 * @example
 * const blobs = databaseBlobStore(db);
 * await blobs.put('ten_1/sandbox/sess_2/upl_3', sealedBytes);
 */
export function databaseBlobStore(db: SqlClient): BlobStore {
  return {
    async put(key, bytes) {
      assertBlobKey(key);
      // The key's first segment is its tenant, as the file store's first directory.
      await putEvidenceBlob(db, key, key.split('/', 1)[0] as string, bytes);
    },
    async get(key) {
      assertBlobKey(key);
      return getEvidenceBlob(db, key);
    },
    async delete(key) {
      assertBlobKey(key);
      await deleteEvidenceBlob(db, key);
    },
  };
}
