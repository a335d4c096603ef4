import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadBlobStoreConfig } from '../../../server/runtime/node/blob-store-config.ts';
import { ConfigError } from '../../../server/runtime/node/config.ts';

const SECRET = 'do-not-print-this-secret/+==';
const S3 = {
  IDV_BLOB_STORE: 's3',
  IDV_S3_BUCKET: 'acme-evidence',
  IDV_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  IDV_S3_SECRET_ACCESS_KEY: SECRET,
};

const failsWith = (env: Record<string, string>, ...patterns: RegExp[]) =>
  assert.throws(
    () => loadBlobStoreConfig(env),
    (error: Error) => {
      assert.ok(error instanceof ConfigError, error.message);
      for (const pattern of patterns) assert.match(error.message, pattern);
      assert.ok(!error.message.includes(SECRET), 'the secret is never printed');
      return true;
    },
  );

describe('blob store settings from the environment', () => {
  it('defaults to files, an empty variable meaning unset', () => {
    assert.deepEqual(loadBlobStoreConfig({}), { kind: 'file' });
    assert.deepEqual(loadBlobStoreConfig({ IDV_BLOB_STORE: '', IDV_S3_BUCKET: '' }), { kind: 'file' });
    assert.deepEqual(loadBlobStoreConfig({ IDV_BLOB_STORE: 'postgres' }), { kind: 'postgres' });
  });

  it('reads S3 with AWS defaults: us-east-1, its regional endpoint, virtual-hosted style, no prefix', () => {
    assert.deepEqual(loadBlobStoreConfig(S3), {
      kind: 's3',
      s3: {
        endpoint: 'https://s3.us-east-1.amazonaws.com',
        region: 'us-east-1',
        bucket: 'acme-evidence',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: SECRET,
        forcePathStyle: false,
        keyPrefix: undefined,
      },
    });
  });

  it('reads every S3 setting (MinIO, R2)', () => {
    const config = loadBlobStoreConfig({
      ...S3,
      IDV_S3_ENDPOINT: 'http://minio:9000',
      IDV_S3_REGION: 'auto',
      IDV_S3_FORCE_PATH_STYLE: 'true',
      IDV_S3_KEY_PREFIX: 'idv/production',
    });
    assert.equal(config.kind, 's3');
    if (config.kind !== 's3') return;
    assert.equal(config.s3.endpoint, 'http://minio:9000');
    assert.equal(config.s3.region, 'auto');
    assert.equal(config.s3.forcePathStyle, true);
    assert.equal(config.s3.keyPrefix, 'idv/production');
  });

  it('names every missing S3 setting at once', () => {
    failsWith(
      { IDV_BLOB_STORE: 's3' },
      /IDV_S3_BUCKET: is required when IDV_BLOB_STORE=s3/,
      /IDV_S3_ACCESS_KEY_ID: is required/,
      /IDV_S3_SECRET_ACCESS_KEY: is required/,
    );
    failsWith({ ...S3, IDV_S3_SECRET_ACCESS_KEY: '' }, /IDV_S3_SECRET_ACCESS_KEY: is required/);
  });

  it('names bad values and what they expect, never echoing the secret', () => {
    failsWith({ IDV_BLOB_STORE: 'disk' }, /IDV_BLOB_STORE: must be file \(default/);
    failsWith(
      {
        ...S3,
        IDV_S3_ENDPOINT: 'minio:9000',
        IDV_S3_REGION: 'EU Central',
        IDV_S3_BUCKET: 'Acme_Evidence',
        IDV_S3_FORCE_PATH_STYLE: 'yes',
        IDV_S3_KEY_PREFIX: '../up',
      },
      /IDV_S3_ENDPOINT: must be an http:\/\/ or https:\/\/ URL/,
      /IDV_S3_REGION: must be a region name/,
      /IDV_S3_BUCKET: must be a bucket name/,
      /IDV_S3_FORCE_PATH_STYLE: must be true/,
      /IDV_S3_KEY_PREFIX: must be segments/,
    );
    failsWith(
      { ...S3, IDV_S3_ENDPOINT: `https://user:${encodeURIComponent(SECRET)}@s3.example.com` },
      /must not carry credentials/,
    );
    failsWith(
      { ...S3, IDV_S3_ENDPOINT: `https://user:${SECRET}@s3.example.com` },
      /IDV_S3_ENDPOINT: must be/,
    );
    failsWith({ ...S3, IDV_S3_ENDPOINT: 'ftp://s3.example.com' }, /must be an http:\/\/ or https:\/\/ URL/);
  });

  it('refuses S3 settings without IDV_BLOB_STORE=s3: evidence would quietly go elsewhere', () => {
    failsWith(
      { IDV_S3_BUCKET: 'acme-evidence', IDV_S3_SECRET_ACCESS_KEY: SECRET },
      /IDV_BLOB_STORE: is file, but IDV_S3_BUCKET, IDV_S3_SECRET_ACCESS_KEY set; add IDV_BLOB_STORE=s3/,
    );
  });
});
