import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AwsClient } from 'aws4fetch';
import {
  S3BlobStoreError,
  type S3BlobStoreOptions,
  s3BlobStore,
} from '../../../server/store/blobs/s3-blob-store.ts';
import { openBlobStore } from '../../../server/runtime/node/open-blob-store.ts';
import type { SqlClient } from '../../../server/store/sql-client.ts';
import { type S3StandIn, startS3StandIn } from './s3-stand-in.ts';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const BASE: S3BlobStoreOptions = {
  endpoint: 'https://s3.eu-central-1.amazonaws.com',
  region: 'eu-central-1',
  bucket: 'acme-evidence',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: SECRET,
  forcePathStyle: false,
};

/** A fetch that records each request and answers from a script of responses (the last one repeats). */
function scriptedFetch(responses: (() => Response)[]) {
  const requests: { url: string; method: string; headers: Headers; body: Uint8Array }[] = [];
  const fetch = (async (input: Request) => {
    requests.push({
      url: input.url,
      method: input.method,
      headers: input.headers,
      body: new Uint8Array(await input.arrayBuffer()),
    });
    const next = responses[Math.min(requests.length - 1, responses.length - 1)] as () => Response;
    return next();
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

const s3Error = (status: number, code: string) => () =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>x</Message></Error>`,
    {
      status,
      headers: { 'content-type': 'application/xml' },
    },
  );

describe('S3 request signing', () => {
  it('aws4fetch, as configured here, signs AWS’s published PutObject example to the published signature', async () => {
    // "Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk", the
    // PUT Object example of the Amazon S3 API reference. The stand-in does not check signatures; this does.
    const client = new AwsClient({
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: SECRET,
      service: 's3',
      region: 'us-east-1',
    });
    const signed = await client.sign('https://examplebucket.s3.amazonaws.com/test$file.text', {
      method: 'PUT',
      body: 'Welcome to Amazon S3.',
      headers: {
        date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        'x-amz-content-sha256': '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
      },
      aws: { datetime: '20130524T000000Z' },
    });
    assert.equal(
      signed.headers.get('authorization'),
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, ' +
        'Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
  });

  it('signs every request for s3 in the configured region, with the payload’s SHA-256 in the signature', async () => {
    const { fetch, requests } = scriptedFetch([() => new Response(null, { status: 200 })]);
    const store = s3BlobStore({ ...BASE, fetch });
    const body = new TextEncoder().encode('ciphertext');
    await store.put('ten_1/sandbox/sess_1/upl_1', body);
    const [put] = requests;
    assert.equal(put?.method, 'PUT');
    assert.deepEqual(put?.body, body);
    assert.equal(put?.headers.get('x-amz-content-sha256'), createHash('sha256').update(body).digest('hex'));
    assert.match(
      put?.headers.get('authorization') ?? '',
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    assert.ok(!JSON.stringify([...(put?.headers ?? [])]).includes(SECRET), 'the secret is never sent');
  });
});

describe('S3 object addresses', () => {
  const urlOf = async (options: Partial<S3BlobStoreOptions>) => {
    const { fetch, requests } = scriptedFetch([() => new Response(null, { status: 204 })]);
    await s3BlobStore({ ...BASE, ...options, fetch }).delete('ten_1/sandbox/sess_1/upl_1');
    return requests[0]?.url;
  };

  it('virtual-hosted style by default, path style on request, with the key prefix and an endpoint path', async () => {
    assert.equal(
      await urlOf({}),
      'https://acme-evidence.s3.eu-central-1.amazonaws.com/ten_1/sandbox/sess_1/upl_1',
    );
    assert.equal(
      await urlOf({ endpoint: 'http://minio:9000', forcePathStyle: true }),
      'http://minio:9000/acme-evidence/ten_1/sandbox/sess_1/upl_1',
    );
    assert.equal(
      await urlOf({ keyPrefix: 'idv/production' }),
      'https://acme-evidence.s3.eu-central-1.amazonaws.com/idv/production/ten_1/sandbox/sess_1/upl_1',
    );
    assert.equal(
      await urlOf({ endpoint: 'https://gateway.example/s3/', forcePathStyle: true }),
      'https://gateway.example/s3/acme-evidence/ten_1/sandbox/sess_1/upl_1',
    );
  });
});

describe('S3 failures', () => {
  it('retries a busy service (503, 429) and succeeds, but not a refusal (403)', async () => {
    const busy = scriptedFetch([
      s3Error(503, 'SlowDown'),
      s3Error(429, 'SlowDown'),
      () => new Response('ok'),
    ]);
    assert.deepEqual(
      await s3BlobStore({ ...BASE, fetch: busy.fetch }).get('ten_1/a'),
      new TextEncoder().encode('ok'),
    );
    assert.equal(busy.requests.length, 3);

    const refused = scriptedFetch([s3Error(403, 'AccessDenied')]);
    await assert.rejects(
      s3BlobStore({ ...BASE, fetch: refused.fetch }).get('ten_1/a'),
      (error: S3BlobStoreError) =>
        error instanceof S3BlobStoreError && error.status === 403 && error.code === 'AccessDenied',
    );
    assert.equal(refused.requests.length, 1, 'a 403 is not retried');
  });

  it('gives up after the attempts, naming operation, status and code, never the key or the secret', async () => {
    const down = scriptedFetch([s3Error(503, 'ServiceUnavailable')]);
    const store = s3BlobStore({ ...BASE, fetch: down.fetch, attempts: 2 });
    await assert.rejects(
      store.put('ten_secretive/sandbox/sess_9/upl_9', new Uint8Array(4)),
      (error: Error) => {
        assert.equal(error.message, 'S3 PutObject failed: HTTP 503 ServiceUnavailable');
        assert.ok(!error.message.includes(SECRET) && !error.message.includes('ten_secretive'));
        return true;
      },
    );
    assert.equal(down.requests.length, 2);
  });

  it('reads only NoSuchKey as missing: another 404 (a wrong endpoint) is an error', async () => {
    const missing = scriptedFetch([s3Error(404, 'NoSuchKey')]);
    assert.equal(await s3BlobStore({ ...BASE, fetch: missing.fetch }).get('ten_1/a'), null);
    const html = scriptedFetch([() => new Response('<html>Not Found</html>', { status: 404 })]);
    await assert.rejects(
      s3BlobStore({ ...BASE, fetch: html.fetch }).get('ten_1/a'),
      /GetObject failed: HTTP 404$/,
    );
  });

  it('deletes idempotently where a service answers 404 NoSuchKey for a missing key', async () => {
    const missing = scriptedFetch([s3Error(404, 'NoSuchKey')]);
    await s3BlobStore({ ...BASE, fetch: missing.fetch }).delete('ten_1/a');
    const denied = scriptedFetch([s3Error(403, 'AccessDenied')]);
    await assert.rejects(
      s3BlobStore({ ...BASE, fetch: denied.fetch }).delete('ten_1/a'),
      /DeleteObject failed: HTTP 403 AccessDenied/,
    );
  });

  it('reports an endpoint that does not answer, after its attempts', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const store = s3BlobStore({
      ...BASE,
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      attempts: 2,
    });
    await assert.rejects(store.get('ten_1/a'), /S3 GetObject failed: no answer/);
  });
});

describe('S3 against the s3rver stand-in', () => {
  let s3: S3StandIn;
  const db = {} as SqlClient;
  before(async () => {
    s3 = await startS3StandIn();
  });
  after(() => s3.close());

  const config = (overrides: Partial<S3BlobStoreOptions> = {}) => ({
    kind: 's3' as const,
    s3: {
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      ...overrides,
    },
  });

  it('opens a store on a bucket that answers, and refuses to start on a missing bucket or an unknown key id', async () => {
    const store = await openBlobStore(config(), { db, dataDir: '/nonexistent' });
    await store.put('ten_1/sandbox/sess_1/upl_1', new Uint8Array([1, 2, 3]));
    assert.deepEqual(await store.get('ten_1/sandbox/sess_1/upl_1'), new Uint8Array([1, 2, 3]));
    await assert.rejects(
      openBlobStore(config({ bucket: 'no-such-bucket' }), { db, dataDir: '/nonexistent' }),
      /the S3 blob store \(bucket no-such-bucket\) is not usable: S3 GetObject failed: HTTP 404 NoSuchBucket/,
    );
    await assert.rejects(
      openBlobStore(config({ accessKeyId: 'UNKNOWN' }), { db, dataDir: '/nonexistent' }),
      /not usable: S3 GetObject failed: HTTP 403 InvalidAccessKeyId/,
    );
  });

  it('puts the key prefix in front of every object, so two prefixes in one bucket never meet', async () => {
    const plain = s3BlobStore(config().s3);
    const prefixed = s3BlobStore(config({ keyPrefix: 'deploy_a' }).s3);
    await prefixed.put('ten_2/sandbox/sess_1/upl_1', new Uint8Array([9]));
    assert.deepEqual(await plain.get('deploy_a/ten_2/sandbox/sess_1/upl_1'), new Uint8Array([9]));
    assert.equal(await plain.get('ten_2/sandbox/sess_1/upl_1'), null);
  });
});
