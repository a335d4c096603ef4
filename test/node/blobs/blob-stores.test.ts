// The one BlobStore contract, run against every store a host can configure (IDV_BLOB_STORE): files,
// memory (tests and the browser mock), the database on PGlite and on PostgreSQL (when TEST_DATABASE_URL
// is set), and S3 against the s3rver stand-in.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseBlobStore } from '../../../server/store/blobs/database-blob-store.ts';
import { memoryBlobStore } from '../../../server/store/blobs/memory-blob-store.ts';
import { s3BlobStore } from '../../../server/store/blobs/s3-blob-store.ts';
import { fileBlobStore } from '../../../server/runtime/node/file-blob-store.ts';
import type { Database } from '../../../server/store/sql-client.ts';
import { createTestDatabase, testEngines } from '../support/test-database.ts';
import { blobStoreContract } from './blob-store-contract.ts';
import { startS3StandIn } from './s3-stand-in.ts';

// s3rver writes an object's file in place, so concurrent PutObjects of one key interleave there; S3, R2
// and MinIO replace an object atomically. The case would test the stand-in, not the adapter.
const S3RVER_LIMIT = {
  concurrentWritersInconclusive:
    'inconclusive on s3rver, which writes objects in place (S3 itself is atomic)',
};

blobStoreContract('memory', async () => ({ store: memoryBlobStore(), close: async () => {} }));

blobStoreContract('file', async () => {
  const root = await mkdtemp(join(tmpdir(), 'idv-blob-contract-'));
  return { store: fileBlobStore(root), close: () => rm(root, { recursive: true, force: true }) };
});

for (const engine of testEngines()) {
  blobStoreContract(`postgres on ${engine}`, async () => {
    const db = await createTestDatabase(engine);
    return { store: databaseBlobStore(db), close: () => db.close() };
  });
}

blobStoreContract(
  's3 (s3rver stand-in, path-style)',
  async () => {
    const s3 = await startS3StandIn();
    const store = s3BlobStore({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    return { store, close: () => s3.close() };
  },
  S3RVER_LIMIT,
);

blobStoreContract(
  's3 (s3rver stand-in, with a key prefix)',
  async () => {
    const s3 = await startS3StandIn();
    const store = s3BlobStore({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      keyPrefix: 'idv/production',
    });
    return { store, close: () => s3.close() };
  },
  S3RVER_LIMIT,
);

for (const engine of testEngines()) {
  describe(`the database blob store's rows (${engine})`, () => {
    let db: Database;
    before(async () => {
      db = await createTestDatabase(engine);
    });
    after(() => db.close());

    it('keeps a blob as its tenant-scoped row and 1 MiB chunks, and removes them all on delete', async () => {
      const store = databaseBlobStore(db);
      await store.put('ten_rows/sandbox/sess_1/upl_1', new Uint8Array(2.5 * 1024 * 1024));
      const [blob] = await db.query<{ tenant_id: string; byte_length: number; chunk_count: number }>(
        `select tenant_id, byte_length, chunk_count from evidence_blobs where key = 'ten_rows/sandbox/sess_1/upl_1'`,
      );
      assert.deepEqual(blob, { tenant_id: 'ten_rows', byte_length: 2.5 * 1024 * 1024, chunk_count: 3 });
      const chunks = await db.query<{ chunk: number; length: number }>(
        `select chunk, length(bytes) as length from evidence_blob_chunks
          where key = 'ten_rows/sandbox/sess_1/upl_1' order by chunk`,
      );
      assert.deepEqual(chunks, [
        { chunk: 0, length: 1024 * 1024 },
        { chunk: 1, length: 1024 * 1024 },
        { chunk: 2, length: 512 * 1024 },
      ]);
      await store.put('ten_rows/sandbox/sess_1/upl_1', new Uint8Array(10));
      const [{ count: afterReplace } = { count: -1 }] = await db.query<{ count: number }>(
        `select count(*)::int as count from evidence_blob_chunks where key = 'ten_rows/sandbox/sess_1/upl_1'`,
      );
      assert.equal(afterReplace, 1, 'a replace leaves no chunk of the old blob behind');
      await store.delete('ten_rows/sandbox/sess_1/upl_1');
      const [{ count } = { count: -1 }] = await db.query<{ count: number }>(
        `select count(*)::int as count from evidence_blob_chunks where key = 'ten_rows/sandbox/sess_1/upl_1'`,
      );
      assert.equal(count, 0);
    });

    it('refuses to return a blob whose chunks do not add up, rather than a truncated one', async () => {
      const store = databaseBlobStore(db);
      await store.put('ten_rows/sandbox/sess_2/upl_1', new Uint8Array(1024 * 1024 + 1));
      await db.query(
        `delete from evidence_blob_chunks where key = 'ten_rows/sandbox/sess_2/upl_1' and chunk = 1`,
      );
      await assert.rejects(store.get('ten_rows/sandbox/sess_2/upl_1'), /incomplete/);
    });

    it('writes a blob atomically: a put that fails half-way leaves the previous blob', async () => {
      const key = 'ten_rows/sandbox/sess_3/upl_1';
      const store = databaseBlobStore(db);
      await store.put(key, new Uint8Array([1, 2, 3]));
      // A database that fails on the third chunk of the next put.
      let chunkInserts = 0;
      const failing: typeof db = {
        ...db,
        transaction: (work) =>
          db.transaction((tx) =>
            work({
              ...tx,
              query: (text, params) => {
                if (/insert into evidence_blob_chunks/.test(text) && ++chunkInserts === 3) {
                  return Promise.reject(new Error('connection lost'));
                }
                return tx.query(text, params);
              },
            }),
          ),
      };
      await assert.rejects(
        databaseBlobStore(failing).put(key, new Uint8Array(3 * 1024 * 1024)),
        /connection lost/,
      );
      assert.deepEqual(await store.get(key), new Uint8Array([1, 2, 3]));
    });
  });
}
