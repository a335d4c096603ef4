// `npm start` with IDV_BLOB_STORE=s3: evidence uploaded over HTTP lands, encrypted, in the bucket; a
// bucket that is not there stops the start with one line; missing settings are named before anything runs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { s3BlobStore } from '../../../server/store/blobs/s3-blob-store.ts';
import { documentJpeg } from '../evidence/synthetic-images.ts';
import { type ServerProcess, startServerProcess } from '../server/server-process.ts';
import { documentForm } from '../verify/verify-support.ts';
import { type S3StandIn, startS3StandIn } from './s3-stand-in.ts';

/** The `server started` line, which in development mode follows the banner the start helper waits for. */
async function startedRecord(server: ServerProcess): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 100; tries += 1) {
    const record = server.records().find((line) => line['message'] === 'server started');
    if (record) return record;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no "server started" line:\n${server.output()}`);
}

describe('npm start with IDV_BLOB_STORE=s3 (s3rver stand-in)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-blob-entry-'));
  let s3: S3StandIn;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;
  before(async () => {
    s3 = await startS3StandIn();
    env = {
      IDV_DATA_DIR: dataDir,
      IDV_VISION: 'off',
      IDV_WORKERS: 'off',
      IDV_BLOB_STORE: 's3',
      IDV_S3_ENDPOINT: s3.endpoint,
      IDV_S3_BUCKET: s3.bucket,
      IDV_S3_ACCESS_KEY_ID: s3.accessKeyId,
      IDV_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      IDV_S3_FORCE_PATH_STYLE: 'true',
      IDV_S3_KEY_PREFIX: 'evidence',
    };
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await s3.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores an upload made over HTTP in the bucket, under the prefix, as ciphertext', async () => {
    server = await startServerProcess(env);
    assert.equal((await startedRecord(server))['blob_store'], 's3');
    const { api_keys } = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as {
      api_keys: { sandbox: string };
    };
    const created = await fetch(`${server.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': api_keys.sandbox, 'content-type': 'application/json' },
      body: JSON.stringify({ country: 'DEU', flow: 'user', tier: 'tier2' }),
    });
    assert.equal(created.status, 201);
    const session = (await created.json()) as { session_id: string; verify_url: string };
    const token = session.verify_url.split('/verify/')[1] as string;
    const consent = await fetch(`${server.baseUrl}/v1/verify/consent`, {
      method: 'POST',
      headers: { 'x-verify-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ accepted: true, consent_version: 'v1' }),
    });
    assert.equal(consent.status, 200);
    const image = await documentJpeg({ seed: 3 });
    const uploaded = await fetch(`${server.baseUrl}/v1/verify/documents`, {
      method: 'POST',
      headers: { 'x-verify-token': token },
      body: documentForm(image),
    });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const { upload_id } = (await uploaded.json()) as { upload_id: string };

    const served = await fetch(`${server.baseUrl}/v1/sessions/${session.session_id}/evidence/${upload_id}`, {
      headers: { 'x-api-key': api_keys.sandbox },
    });
    assert.equal(served.status, 200);
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), new Uint8Array(image));

    // The object's key is <prefix>/<tenant>/sandbox/<session>/<upload>; find it by its known tail.
    const bucket = s3BlobStore({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    const listing = await (await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2&prefix=evidence/`)).text();
    const key = new RegExp(
      `<Key>(evidence/ten_[A-Za-z0-9]+/sandbox/${session.session_id}/${upload_id})</Key>`,
    ).exec(listing)?.[1];
    assert.ok(key, `no object for the upload under the prefix:\n${listing}`);
    const stored = (await bucket.get(key)) as Uint8Array;
    assert.deepEqual([...stored.subarray(0, 4)], [...new TextEncoder().encode('IDVB')], 'ciphertext only');
    assert.equal(await server.stop('SIGTERM'), 0);
  });

  it('refuses to start on a bucket that is not there, in one line', async () => {
    await assert.rejects(startServerProcess({ ...env, IDV_S3_BUCKET: 'not-there' }), (error: Error) => {
      assert.match(
        error.message,
        /id-verify failed to start: the S3 blob store \(bucket not-there\) is not usable: S3 GetObject failed: HTTP 404 NoSuchBucket/,
      );
      return true;
    });
  });

  it('names missing S3 settings before anything starts, without printing the secret', async () => {
    const { IDV_S3_BUCKET: _bucket, IDV_S3_ACCESS_KEY_ID: _id, ...rest } = env;
    await assert.rejects(
      startServerProcess({ ...rest, IDV_S3_SECRET_ACCESS_KEY: 'very-secret-value' }),
      (error: Error) => {
        assert.match(error.message, /exited with 78/);
        assert.match(error.message, /IDV_S3_BUCKET: is required when IDV_BLOB_STORE=s3/);
        assert.match(error.message, /IDV_S3_ACCESS_KEY_ID: is required/);
        assert.ok(!error.message.includes('very-secret-value'));
        return true;
      },
    );
  });
});
