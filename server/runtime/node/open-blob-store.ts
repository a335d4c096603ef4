import { join } from 'node:path';
import type { BlobStore } from '../../store/blobs/blob-store.ts';
import { databaseBlobStore } from '../../store/blobs/database-blob-store.ts';
import { s3BlobStore } from '../../store/blobs/s3-blob-store.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { BlobStoreConfig } from './blob-store-config.ts';
import { fileBlobStore } from './file-blob-store.ts';

/** A key no upload ever has (uploads start with a `ten_` id): read at start-up to check the bucket. */
const S3_PROBE_KEY = 'idv-start-up-probe/absent';

/**
 * The blob store the configuration names. An S3 store is tried once first: a wrong endpoint, bucket or
 * credential then stops the start with one line, instead of failing the first upload hours later.
 *
 * @example
 * const blobs = await openBlobStore(loadBlobStoreConfig(process.env), { db, dataDir: config.dataDir });
 */
export async function openBlobStore(
  config: BlobStoreConfig,
  context: { db: SqlClient; dataDir: string },
): Promise<BlobStore> {
  switch (config.kind) {
    case 'file':
      return fileBlobStore(join(context.dataDir, 'blobs'));
    case 'postgres':
      return databaseBlobStore(context.db);
    case 's3': {
      const store = s3BlobStore(config.s3);
      try {
        await store.get(S3_PROBE_KEY);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`the S3 blob store (bucket ${config.s3.bucket}) is not usable: ${reason}`);
      }
      return store;
    }
  }
}
