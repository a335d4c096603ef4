import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * The S3-compatible stand-in the tests run the S3 blob store against: s3rver, in process, on a free
 * port, keeping its objects in a temporary directory. It is a stand-in, not S3: it speaks the same
 * PutObject/GetObject/DeleteObject protocol and error documents, but it does not check SigV4 signatures
 * (only that the access key id is known), so signing is tested against AWS's published example instead
 * (s3-blob-store.test.ts).
 */
export interface S3StandIn {
  endpoint: string;
  bucket: string;
  /** s3rver's fixed credentials. */
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

export async function startS3StandIn(bucket = 'idv-evidence'): Promise<S3StandIn> {
  const directory = await mkdtemp(join(tmpdir(), 'idv-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
