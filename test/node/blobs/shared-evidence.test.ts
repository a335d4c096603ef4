// Two app instances on one database, each with its own blob store client over one shared storage, as on
// two machines: evidence uploaded through one is served by the other. With a file store each (the
// single-machine default) it is not, which is what IDV_BLOB_STORE=postgres|s3 is for.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createApp } from '../../../server/app.ts';
import type { AppDeps } from '../../../server/app-deps.ts';
import { systemClock } from '../../../server/clock.ts';
import type { BlobStore } from '../../../server/store/blobs/blob-store.ts';
import { databaseBlobStore } from '../../../server/store/blobs/database-blob-store.ts';
import { s3BlobStore } from '../../../server/store/blobs/s3-blob-store.ts';
import { createFieldCipher } from '../../../server/crypto/field-cipher.ts';
import { randomIds } from '../../../server/crypto/ids.ts';
import { randomBytes } from '../../../server/crypto/primitives.ts';
import { argon2PasswordHasher } from '../../../server/runtime/node/argon2-password-hasher.ts';
import { fileBlobStore } from '../../../server/runtime/node/file-blob-store.ts';
import { postgresDatabase } from '../../../server/runtime/node/pg-database.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { migrate } from '../../../server/store/migrate.ts';
import { pgliteDatabase } from '../../../server/store/pglite-database.ts';
import type { Database, SqlClient } from '../../../server/store/sql-client.ts';
import { bootstrapTenant } from '../../../server/features/tenants/bootstrap-tenant.ts';
import { documentJpeg } from '../evidence/synthetic-images.ts';
import { documentForm } from '../verify/verify-support.ts';
import { startS3StandIn } from './s3-stand-in.ts';

const BASE_URL = 'http://api.idv.test';
const ADMIN_URL = process.env['TEST_DATABASE_URL'];

type App = ReturnType<typeof createApp>;

/** One "machine": its own app, database connection(s) and blob store client; shared keys, as in a deployment. */
async function instance(
  db: SqlClient,
  blobs: BlobStore,
  keys: { master: Uint8Array<ArrayBuffer>; jwt: Uint8Array<ArrayBuffer> },
) {
  const deps: AppDeps = {
    config: {
      baseUrl: BASE_URL,
      verifyBaseUrl: BASE_URL,
      mode: 'development',
      rateLimits: { reads: 100_000, writes: 100_000 },
      accessTokenTtlSeconds: 3600,
    },
    db,
    clock: systemClock,
    ids: randomIds,
    passwords: argon2PasswordHasher,
    cipher: await createFieldCipher(keys.master),
    jwtSecret: keys.jwt,
    clientAddress: () => '203.0.113.7',
    images: sharpImageAnalyzer(),
    blobs,
  };
  return { deps, app: createApp(deps) };
}

/** Uploads one document photo through `app` as the end-user would; answers the session and upload ids. */
async function upload(app: App, key: string, image: Uint8Array) {
  const call = (path: string, init: RequestInit) => app.request(`${BASE_URL}${path}`, init);
  const created = await call('/v1/sessions', {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ country: 'DEU', flow: 'user', tier: 'tier2' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const session = (await created.json()) as { session_id: string; verify_url: string };
  const token = session.verify_url.split('/verify/')[1] as string;
  const consent = await call('/v1/verify/consent', {
    method: 'POST',
    headers: { 'x-verify-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ accepted: true, consent_version: 'v1' }),
  });
  assert.equal(consent.status, 200);
  const uploaded = await call('/v1/verify/documents', {
    method: 'POST',
    headers: { 'x-verify-token': token },
    body: documentForm(image),
  });
  assert.equal(uploaded.status, 201, await uploaded.clone().text());
  return {
    sessionId: session.session_id,
    uploadId: ((await uploaded.json()) as { upload_id: string }).upload_id,
  };
}

function evidence(app: App, key: string, ids: { sessionId: string; uploadId: string }) {
  return app.request(`${BASE_URL}/v1/sessions/${ids.sessionId}/evidence/${ids.uploadId}`, {
    headers: { 'x-api-key': key },
  });
}

interface SharedSetup {
  /** Two connections (pools) to one database: one per instance. */
  databases: [Database, Database];
  /** Two blob store clients over one storage, and a raw view of it for the test. */
  blobs: [BlobStore, BlobStore];
  /** What reached the storage under a key, read past the app's encryption. */
  raw: (key: string) => Promise<Uint8Array | null>;
  close(): Promise<void>;
}

function sharedEvidenceSuite(name: string, setup: () => Promise<SharedSetup>, expectShared = true) {
  describe(name, () => {
    let shared: SharedSetup;
    let first: Awaited<ReturnType<typeof instance>>;
    let second: Awaited<ReturnType<typeof instance>>;
    let sandboxKey: string;
    let image: Uint8Array;
    before(async () => {
      shared = await setup();
      const keys = { master: randomBytes(32), jwt: randomBytes(32) };
      first = await instance(shared.databases[0], shared.blobs[0], keys);
      second = await instance(shared.databases[1], shared.blobs[1], keys);
      const tenant = await bootstrapTenant(first.deps, {
        tenantName: 'Shared',
        adminEmail: `admin-${Math.random().toString(36).slice(2, 8)}@shared.idv.test`,
        apiKeys: ['sandbox'],
      });
      sandboxKey = tenant.apiKeys.sandbox as string;
      image = await documentJpeg({ seed: 7 });
    });
    after(() => shared?.close());

    if (expectShared) {
      it('serves through each instance the evidence uploaded through the other, stored encrypted', async () => {
        const viaFirst = await upload(first.app, sandboxKey, image);
        const viaSecond = await upload(second.app, sandboxKey, image);
        for (const [app, ids] of [
          [second.app, viaFirst],
          [first.app, viaSecond],
        ] as const) {
          const served = await evidence(app, sandboxKey, ids);
          assert.equal(served.status, 200, await served.clone().text());
          assert.deepEqual(new Uint8Array(await served.arrayBuffer()), new Uint8Array(image));
        }
        const [row] = await shared.databases[0].query<{ blob_key: string }>(
          'select blob_key from verify_uploads where id = $1',
          [viaFirst.uploadId],
        );
        const stored = await shared.raw(row?.blob_key as string);
        assert.ok(stored, 'the bytes are in the shared storage');
        assert.deepEqual(
          [...stored.subarray(0, 4)],
          [...new TextEncoder().encode('IDVB')],
          'ciphertext only',
        );
      });
    } else {
      it('does not: the second instance cannot find what the first one stored', async () => {
        const viaFirst = await upload(first.app, sandboxKey, image);
        assert.equal((await evidence(first.app, sandboxKey, viaFirst)).status, 200);
        assert.equal((await evidence(second.app, sandboxKey, viaFirst)).status, 404);
      });
    }
  });
}

/** A fresh PostgreSQL database with two pools on it; dropped on close. */
async function postgresPair(): Promise<{ databases: [Database, Database]; close(): Promise<void> }> {
  const name = `idv_shared_blobs_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL as string);
  url.pathname = `/${name}`;
  const databases: [Database, Database] = [
    postgresDatabase(url.toString(), { max: 3 }),
    postgresDatabase(url.toString(), { max: 3 }),
  ];
  await Promise.all(databases.map((db) => migrate(db)));
  return {
    databases,
    async close() {
      await Promise.all(databases.map((db) => db.close()));
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/** One PGlite for both instances: the embedded engine cannot be opened twice, but two apps can share it. */
async function pgliteShared(): Promise<{ databases: [Database, Database]; close(): Promise<void> }> {
  const db = pgliteDatabase(await PGlite.create());
  await migrate(db);
  return { databases: [db, db], close: () => db.close() };
}

sharedEvidenceSuite(
  'two instances with a file store each (the single-machine default)',
  async () => {
    const { databases, close } = await pgliteShared();
    const roots = [await mkdtemp(join(tmpdir(), 'idv-a-')), await mkdtemp(join(tmpdir(), 'idv-b-'))];
    return {
      databases,
      blobs: [fileBlobStore(roots[0] as string), fileBlobStore(roots[1] as string)],
      raw: (key) => fileBlobStore(roots[0] as string).get(key),
      async close() {
        await close();
        for (const root of roots) await rm(root, { recursive: true, force: true });
      },
    };
  },
  false,
);

sharedEvidenceSuite(
  'two instances on one database, evidence in it (IDV_BLOB_STORE=postgres, PGlite)',
  async () => {
    const { databases, close } = await pgliteShared();
    return {
      databases,
      blobs: [databaseBlobStore(databases[0]), databaseBlobStore(databases[1])],
      raw: (key) => databaseBlobStore(databases[0]).get(key),
      close,
    };
  },
);

describe('two instances on one PostgreSQL server, evidence in it (IDV_BLOB_STORE=postgres)', {
  skip: !ADMIN_URL && 'needs TEST_DATABASE_URL',
}, () => {
  sharedEvidenceSuite('two pools, as two machines', async () => {
    const { databases, close } = await postgresPair();
    return {
      databases,
      blobs: [databaseBlobStore(databases[0]), databaseBlobStore(databases[1])],
      raw: (key) => databaseBlobStore(databases[0]).get(key),
      close,
    };
  });
});

sharedEvidenceSuite('two instances on one S3 bucket (IDV_BLOB_STORE=s3, s3rver stand-in)', async () => {
  const { databases, close } = ADMIN_URL ? await postgresPair() : await pgliteShared();
  const s3 = await startS3StandIn();
  const client = () =>
    s3BlobStore({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      keyPrefix: 'idv',
    });
  const raw = s3BlobStore({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  });
  return {
    databases,
    blobs: [client(), client()],
    raw: (key) => raw.get(`idv/${key}`),
    async close() {
      await close();
      await s3.close();
    },
  };
});
