import { z } from 'zod';
import type { S3BlobStoreOptions } from '../../store/blobs/s3-blob-store.ts';
import { ConfigError } from './config.ts';

export const BLOB_STORE_KINDS = ['file', 'postgres', 's3'] as const;

/** A key prefix: `/`-separated segments like the blob keys themselves, so it needs no escaping either. */
const KEY_PREFIX = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
/** S3's bucket naming rules (3 to 63 lowercase letters, digits, dots and hyphens), which R2 and MinIO share. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Documented like config.ts's EnvSchema: docs/configuration.md is generated from it. */
export const BlobEnv = z.object({
  IDV_BLOB_STORE: z
    .enum(BLOB_STORE_KINDS, {
      message: 'must be file (default: under IDV_DATA_DIR), postgres (in the database) or s3',
    })
    .default('file')
    .describe(
      'Where evidence is kept (encrypted by the app before any store sees it): `file` under `IDV_DATA_DIR/blobs` (one machine), `postgres` in the database the instances share, `s3` in a bucket of an S3-compatible service (IDV_S3_*).',
    ),
  IDV_S3_ENDPOINT: z
    .string()
    .refine(
      (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
      'must be an http:// or https:// URL such as https://s3.eu-central-1.amazonaws.com or http://minio:9000',
    )
    .refine((value) => {
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      return url.username === '' && url.password === '' && url.search === '' && url.hash === '';
    }, 'must not carry credentials, a query or a fragment (credentials go in IDV_S3_ACCESS_KEY_ID/…)')
    .optional()
    .meta({
      description: 'S3-compatible endpoint, e.g. `http://minio:9000` or an R2 account endpoint.',
      'x-default': 'AWS: `https://s3.$IDV_S3_REGION.amazonaws.com`',
      'x-allowed': 'http:// or https:// URL without credentials, query or fragment',
    }),
  IDV_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as eu-central-1 (auto on R2)')
    .default('us-east-1')
    .describe('Signing region (`auto` on R2).'),
  IDV_S3_BUCKET: z
    .string()
    .regex(BUCKET, 'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens')
    .optional()
    .meta({
      description: 'Bucket name. Required when IDV_BLOB_STORE=s3.',
      'x-allowed': '3 to 63 lowercase letters, digits, dots and hyphens',
    }),
  // Never echoed: zod's messages here are ours and quote no value.
  IDV_S3_ACCESS_KEY_ID: z.string().optional().describe('Access key id. Required when IDV_BLOB_STORE=s3.'),
  IDV_S3_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .describe('Secret access key, never printed. Required when IDV_BLOB_STORE=s3.'),
  IDV_S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], {
      message: 'must be true (<endpoint>/<bucket>/<key>, e.g. MinIO) or false (default: <bucket>.<host>)',
    })
    .default('false')
    .describe('`true`: objects at `<endpoint>/<bucket>/<key>` (MinIO); `false`: at `<bucket>.<host>/<key>`.'),
  IDV_S3_KEY_PREFIX: z
    .string()
    .max(200, 'must be at most 200 characters')
    .regex(KEY_PREFIX, 'must be segments of letters, digits, _ and - separated by /, e.g. idv/production')
    .optional()
    .meta({
      description: 'Put before every object key, e.g. `idv/production`.',
      'x-allowed': 'segments of letters, digits, `_` and `-` separated by `/`, at most 200 characters',
    }),
});

export type BlobStoreConfig =
  | { kind: 'file' }
  | { kind: 'postgres' }
  | { kind: 's3'; s3: Omit<S3BlobStoreOptions, 'fetch' | 'timeoutMs' | 'attempts'> };

/**
 * Where evidence bytes are kept, from the environment, read once at start-up: `file` under
 * `<IDV_DATA_DIR>/blobs` (one machine), `postgres` in the database the instances already share, or `s3`
 * in a bucket of any S3-compatible service (`IDV_S3_*`). A bad or missing setting names itself; the
 * secret is never part of a message.
 *
 * @example
 * const blobStore = loadBlobStoreConfig(process.env); // { kind: 'file' }
 */
export function loadBlobStoreConfig(env: Record<string, string | undefined>): BlobStoreConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) => name in BlobEnv.shape && value !== undefined && value !== '',
    ),
  );
  const parsed = BlobEnv.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  const kind = parsed.success ? parsed.data.IDV_BLOB_STORE : present['IDV_BLOB_STORE'];
  const s3Names = Object.keys(present).filter((name) => name.startsWith('IDV_S3_'));
  if (kind === 's3') {
    for (const name of ['IDV_S3_BUCKET', 'IDV_S3_ACCESS_KEY_ID', 'IDV_S3_SECRET_ACCESS_KEY'] as const) {
      if (present[name] === undefined) problems.push(`  ${name}: is required when IDV_BLOB_STORE=s3`);
    }
  } else if (s3Names.length > 0 && parsed.success) {
    // Evidence would otherwise quietly land elsewhere than the operator meant.
    problems.push(`  IDV_BLOB_STORE: is ${kind}, but ${s3Names.join(', ')} set; add IDV_BLOB_STORE=s3`);
  }
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const data = parsed.data;
  if (data.IDV_BLOB_STORE !== 's3') return { kind: data.IDV_BLOB_STORE };
  return {
    kind: 's3',
    s3: {
      endpoint: data.IDV_S3_ENDPOINT ?? `https://s3.${data.IDV_S3_REGION}.amazonaws.com`,
      region: data.IDV_S3_REGION,
      bucket: data.IDV_S3_BUCKET as string,
      accessKeyId: data.IDV_S3_ACCESS_KEY_ID as string,
      secretAccessKey: data.IDV_S3_SECRET_ACCESS_KEY as string,
      forcePathStyle: data.IDV_S3_FORCE_PATH_STYLE === 'true',
      keyPrefix: data.IDV_S3_KEY_PREFIX,
    },
  };
}
