// SIGKILL at random moments during a stream of end-user flows, restart on the same data directory and
// database each time, then check what survived against what the client was told: every acknowledged
// create exists, every acknowledged submit is decided exactly once, every `session.*` event reached an
// independent receiver (duplicates are allowed, counted and printed), and evidence blobs and upload rows
// match one to one. On the embedded database (file blob store) and, with TEST_DATABASE_URL, on
// PostgreSQL (blobs in the database, so both kinds of store are killed mid-write).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { EMBEDDED_DATABASE_OPTIONS } from '../../../server/runtime/node/embedded-database-settings.ts';
import {
  checkDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support-server/webhook-receiver.ts';
import type { Engine } from '../support/test-database.ts';
import {
  DECISION_EVENTS,
  deliveriesPerEvent,
  emptyLedger,
  fileBlobKeys,
  inspectDatabase,
  type Query,
  runFlowLanes,
} from './end-user-flows.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/** Kills per engine: about 5 s each on two cores (most of it the restart); CRASH_LOOP_KILLS overrides. */
const KILLS = Number(process.env['CRASH_LOOP_KILLS'] ?? 10);
const LANES = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh PostgreSQL database for one run; `drop()` removes it again. */
async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env['TEST_DATABASE_URL'] as string;
  const name = `idv_crash_loop_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * Runs `work` with a query function on the database under test. The embedded one can be opened by one
 * process only, so only while the server is down.
 */
async function withDatabase<T>(
  engine: Engine,
  target: { dataDir: string; url?: string },
  work: (query: Query) => Promise<T>,
): Promise<T> {
  if (engine === 'pglite') {
    const db = await PGlite.create(join(target.dataDir, 'pgdata'), EMBEDDED_DATABASE_OPTIONS);
    try {
      return await work(async (sql, params) => (await db.query(sql, params)).rows as never[]);
    } finally {
      await db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return await work(async (sql, params) => (await client.query(sql, params)).rows as never[]);
  } finally {
    await client.end();
  }
}

/**
 * Moves the clock past what the killed processes left waiting, instead of waiting for it: the review and
 * webhook workers' 60 s leases lapse, a webhook retry's back-off ends, and the journal of unreferenced
 * blobs (migration 011) ages past the sweeper's grace. Run with no server up, so every claim and every
 * journaled write left belongs to a dead process, exactly what the passing of time would release.
 * Returns how many journaled blob keys no upload row names: the bytes crashes left behind.
 */
async function letTimePass(query: Query): Promise<number> {
  await query(
    'update review_jobs set claimed_until = now() where finished_at is null and claimed_until > now()',
  );
  await query(
    `update webhook_deliveries set next_attempt_at = now() where status = 'pending' and next_attempt_at > now()`,
  );
  const [left] = await query<{ count: number }>(
    `select count(*)::int as count from unreferenced_blobs j
      where not exists (select 1 from verify_uploads u where u.blob_key = j.key)`,
  );
  await query(`update unreferenced_blobs set since = since - interval '1 day'`);
  return left?.count ?? 0;
}

/**
 * The crash loop on one engine. Two test files, one engine each (crash-loop-embedded.test.ts,
 * crash-loop-postgres.test.ts): `npm test` runs them in different lanes, about 75 s each on two cores.
 */
export function describeCrashLoop(engine: Engine): void {
  describe(`SIGKILL at random moments during end-user flows, on ${engine}`, () => {
    let dataDir: string | undefined;
    let server: ServerProcess | undefined;
    let database: { url: string; drop(): Promise<void> } | undefined;
    let openReceiver: WebhookReceiver | undefined;

    after(async () => {
      await server?.stop('SIGKILL');
      await openReceiver?.close();
      await database?.drop().catch(() => {});
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it(`survives ${KILLS} kills: acknowledged creates kept, submits decided once, events delivered, no orphaned blob`, {
      timeout: 240_000,
    }, async () => {
      const started = Date.now();
      const dir = mkdtempSync(join(tmpdir(), `idv-crash-loop-${engine}-`));
      dataDir = dir;
      const receiver = await startWebhookReceiver();
      openReceiver = receiver;
      if (engine === 'postgres') database = await freshPostgresDatabase();
      const env: Record<string, string> = {
        IDV_DATA_DIR: dir,
        // Sandbox outcomes decide without the models: the review still runs on the evidence, fast.
        IDV_VISION: 'off',
        IDV_RATE_LIMIT_READS: '100000',
        IDV_RATE_LIMIT_WRITES: '100000',
        IDV_WEBHOOK_POLL_MS: '50',
        ...(database ? { DATABASE_URL: database.url, IDV_BLOB_STORE: 'postgres' } : {}),
      };
      const start = async () => {
        server = await startServerProcess(env);
      };
      await start();
      const credentials = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as {
        api_keys: { sandbox: string };
      };
      const apiKey = credentials.api_keys.sandbox;
      const hook = await fetch(`${server!.baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['*'] }),
      });
      assert.equal(hook.status, 201, await hook.clone().text());
      const secret = String(((await hook.json()) as Record<string, unknown>)['secret']);

      // The flows follow the server across restarts: each request reads the current base URL.
      const ledger = emptyLedger();
      let killing = true;
      const flowsDone = runFlowLanes(ledger, {
        lanes: LANES,
        keepGoing: () => killing,
        baseUrl: () => server!.baseUrl,
        apiKey,
        // Past the whole kill loop: a retry may wait out several 10 s idempotency leases of killed owners.
        flowTimeoutMs: 180_000,
      });
      let kills = 0;
      try {
        for (; kills < KILLS; kills += 1) {
          // A random moment: somewhere in a create, an upload, a submit, a review or a delivery.
          await sleep(300 + Math.random() * 1_700);
          await server!.stop('SIGKILL');
          await start();
        }
      } finally {
        // Also when a restart failed: the lanes must not go on retrying against no server.
        killing = false;
      }
      const flows = await flowsDone;
      const loopSeconds = (Date.now() - started) / 1000;

      // Drain: stop cleanly, let time pass for what the dead processes left, start once more (its
      // retention sweep runs at start) and wait until every acknowledged submit's decision reached the
      // receiver and the receiver has gone quiet.
      assert.equal(await server!.stop('SIGTERM'), 0, server!.errors());
      const leftByCrashes = await withDatabase(engine, { dataDir: dir, url: database?.url }, letTimePass);
      await start();
      const decidedDelivered = () => {
        const decided = new Set(
          receiver
            .deliveries()
            .map((delivery) => JSON.parse(delivery.body) as Record<string, unknown>)
            .filter((payload) => DECISION_EVENTS.includes(String(payload['event'])))
            .map((payload) => String(payload['session_id'])),
        );
        return [...ledger.submitted].every((id) => decided.has(id));
      };
      const drainDeadline = Date.now() + 30_000;
      let lastCount = -1;
      while (Date.now() < drainDeadline) {
        const count = receiver.deliveries().length;
        if (decidedDelivered() && count === lastCount) break;
        lastCount = count;
        await sleep(750);
      }
      assert.equal(await server!.stop('SIGTERM'), 0, server!.errors());

      const findings = await withDatabase(engine, { dataDir: dir, url: database?.url }, async (query) => ({
        ...(await inspectDatabase(query, ledger)),
        journaled: (await query<{ key: string }>('select key from unreferenced_blobs')).map((row) => row.key),
        storedBlobs:
          engine === 'pglite'
            ? fileBlobKeys(join(dir, 'blobs'))
            : {
                keys: (await query<{ key: string }>('select key from evidence_blobs')).map((row) => row.key),
                temporary: [],
              },
      }));

      const received = receiver.deliveries();
      const checked = received.map((delivery) => checkDelivery(secret, delivery));
      const perEvent = deliveriesPerEvent(checked.map((delivery) => delivery.webhookId));
      const undelivered = findings.events.filter((event) => !perEvent.has(event.id));
      const duplicates = [...perEvent].filter(([, count]) => count > 1);
      const uploads = new Set(findings.uploadBlobKeys);
      const stored = new Set(findings.storedBlobs.keys);
      const orphanBlobs = [...stored].filter((key) => !uploads.has(key));
      const missingBlobs = [...uploads].filter((key) => !stored.has(key));

      console.log(
        `[crash-loop ${engine}] kills survived: ${kills}; flows: ${flows} (${ledger.created.size} creates, ` +
          `${ledger.submitted.size} submits acknowledged; ${ledger.retries} requests retried); ` +
          `session events: ${findings.events.length}; deliveries: ${received.length}; ` +
          `duplicates: ${duplicates.length}${duplicates.length ? ` (${duplicates.map(([id, n]) => `${id}×${n}`).join(', ')})` : ''}; ` +
          `blob writes cut by a kill (journaled, then swept): ${leftByCrashes}; ` +
          `blobs: ${stored.size} for ${uploads.size} upload rows (${orphanBlobs.length} orphaned, ${missingBlobs.length} missing), ` +
          `${findings.storedBlobs.temporary.length} temporary files; undelivered events: ${undelivered.length}; ` +
          `kill loop ${loopSeconds.toFixed(1)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );

      assert.deepEqual(ledger.failures, [], 'a flow met an answer it could not get past');
      assert.ok(kills === KILLS && ledger.submitted.size >= 5, 'too few flows to mean anything');
      assert.deepEqual(findings.missingCreates, [], 'an acknowledged create is gone');
      assert.deepEqual(findings.notDecidedOnce, [], 'a submitted session was not decided exactly once');
      assert.deepEqual(
        undelivered.map((event) => `${event.type} ${event.session_id} ${event.id}`),
        [],
        'an event never reached the receiver',
      );
      assert.ok(
        checked.every((delivery) => delivery.serviceSignatureValid && delivery.standardSignatureValid),
        'a delivery carried a signature the receiver could not verify',
      );
      assert.deepEqual(missingBlobs, [], 'an upload row names a blob that is not stored');
      assert.deepEqual(orphanBlobs, [], 'a stored blob belongs to no upload row');
      assert.deepEqual(findings.storedBlobs.temporary, [], 'a cut write left a temporary file');
      assert.deepEqual(findings.journaled, [], 'the sweep left journaled blob writes behind');
    });
  });
}
