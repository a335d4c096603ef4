import { AwsClient } from 'aws4fetch';
import { toHex } from '../../crypto/encoding.ts';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

export interface S3BlobStoreOptions {
  /** The service's origin, e.g. `https://s3.eu-central-1.amazonaws.com`, `https://<account>.r2.cloudflarestorage.com`, `http://minio:9000`. */
  endpoint: string;
  /** The signing region: the bucket's region on AWS, `auto` on R2, usually `us-east-1` on MinIO. */
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `true`: `<endpoint>/<bucket>/<key>` (MinIO, most stand-ins); `false`: `<bucket>.<endpoint host>/<key>` (AWS). */
  forcePathStyle: boolean;
  /** Put before every key, e.g. `idv/production`, so one bucket can hold several deployments. */
  keyPrefix?: string | undefined;
  /** How long one request may take before it counts as failed (default 30 s). */
  timeoutMs?: number;
  /** Tries per operation when the service answers 5xx/429 or not at all (default 3; all three are idempotent). */
  attempts?: number;
  /** The HTTP client; tests pass one that records requests. */
  fetch?: typeof fetch;
}

/** SHA-256 of nothing: the payload hash of a GET or DELETE. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/** A failed S3 call: the operation, the HTTP status and S3's error code; never a URL, a key or a credential. */
export class S3BlobStoreError extends Error {
  override name = 'S3BlobStoreError';
  readonly status: number | null;
  readonly code: string | null;
  constructor(operation: string, status: number | null, code: string | null, cause?: unknown) {
    super(
      status === null
        ? `S3 ${operation} failed: no answer (${cause instanceof Error ? cause.name : 'network error'})`
        : `S3 ${operation} failed: HTTP ${status}${code ? ` ${code}` : ''}`,
      cause === undefined ? undefined : { cause },
    );
    this.status = status;
    this.code = code;
  }
}

/** The `<Code>` of an S3 error document; only a short token, so it is safe in a message. */
async function errorCode(response: Response): Promise<string | null> {
  const text = await response.text().catch(() => '');
  const code = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(text)?.[1];
  return code ?? null;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/**
 * A {@link BlobStore} on any service that speaks the plain S3 API (`IDV_BLOB_STORE=s3`): Amazon S3,
 * Cloudflare R2, MinIO, Ceph RGW… Three calls only (PutObject, GetObject, DeleteObject), signed with
 * AWS Signature V4 by aws4fetch over the web-standard `fetch`, so no SDK and no Node API. Every payload
 * is hashed into the signature (`x-amz-content-sha256`), so the service refuses a body damaged on the way.
 * The app stores only ciphertext here (see `encryptedBlobStore`).
 *
 * A PutObject replaces the whole object atomically, and a DeleteObject of a missing key succeeds, which
 * is the interface's contract. A GetObject of a missing key answers 404 `NoSuchKey` only when the
 * credentials may list the bucket (`s3:ListBucket` on AWS); without that right S3 answers 403, which is
 * reported as an error, not as a missing blob.
 *
 * @example
 * const blobs = s3BlobStore({ endpoint: 'https://s3.eu-central-1.amazonaws.com', region: 'eu-central-1',
 *   bucket: 'acme-idv-evidence', accessKeyId, secretAccessKey, forcePathStyle: false });
 */
export function s3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    service: 's3',
    region: options.region,
  });
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const endpoint = new URL(options.endpoint);
  const basePath = endpoint.pathname.replace(/\/+$/, '');
  const prefix = options.keyPrefix ? `${options.keyPrefix}/` : '';

  function objectUrl(key: string): string {
    assertBlobKey(key);
    // Keys are `[A-Za-z0-9_-]` segments, so they need no escaping in a URL or in the signature.
    return options.forcePathStyle
      ? `${endpoint.origin}${basePath}/${options.bucket}/${prefix}${key}`
      : `${endpoint.protocol}//${options.bucket}.${endpoint.host}${basePath}/${prefix}${key}`;
  }

  /** Signs and sends one request, again after a pause when the service is busy or unreachable. */
  async function call(operation: string, url: string, init: RequestInit, payloadHash: string) {
    let failure: S3BlobStoreError | null = null;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 100 * 4 ** (attempt - 2)));
      const request = await client.sign(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'x-amz-content-sha256': payloadHash },
      });
      let response: Response;
      try {
        response = await send(request, { signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        failure = new S3BlobStoreError(operation, null, null, error);
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status)) return response;
      failure = new S3BlobStoreError(operation, response.status, await errorCode(response));
    }
    throw failure as S3BlobStoreError;
  }

  return {
    async put(key, bytes) {
      const url = objectUrl(key);
      const response = await call(
        'PutObject',
        url,
        {
          method: 'PUT',
          body: bytes as Uint8Array<ArrayBuffer>,
          headers: { 'content-type': 'application/octet-stream' },
        },
        await sha256Hex(bytes),
      );
      if (!response.ok) throw new S3BlobStoreError('PutObject', response.status, await errorCode(response));
      await response.body?.cancel();
    },
    async get(key) {
      const response = await call('GetObject', objectUrl(key), { method: 'GET' }, EMPTY_SHA256);
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      const code = await errorCode(response);
      // Only S3's own word for a missing object: a 404 from a wrong endpoint or a missing bucket is an error.
      if (response.status === 404 && code === 'NoSuchKey') return null;
      throw new S3BlobStoreError('GetObject', response.status, code);
    },
    async delete(key) {
      const response = await call('DeleteObject', objectUrl(key), { method: 'DELETE' }, EMPTY_SHA256);
      if (response.ok) {
        await response.body?.cancel();
        return;
      }
      const code = await errorCode(response);
      // S3 answers 204 for a missing key; some compatible services answer 404 NoSuchKey. Both are done.
      if (response.status === 404 && code === 'NoSuchKey') return;
      throw new S3BlobStoreError('DeleteObject', response.status, code);
    },
  };
}
