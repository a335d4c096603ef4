// Two API instances with their workers off (IDV_WORKERS=off) and one worker-only process (`npm run
// worker`) on one PostgreSQL database, as replicas behind a load balancer: a stream of end-user flows whose
// every request goes to either instance at random; afterwards every submitted session is decided exactly
// once (one decision row, one decision event, one finished review job), every `session.*` event reached
// an independent receiver at least once, and duplicates are counted and printed. PGlite cannot be opened
// by several processes, so this needs a PostgreSQL server (TEST_DATABASE_URL).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import {
  checkDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support-server/webhook-receiver.ts';
import {
  DECISION_EVENTS,
  deliveriesPerEvent,
  emptyLedger,
  inspectDatabase,
  type Query,
  runFlowLanes,
} from './end-user-flows.ts';
import {
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
  type WorkerProcess,
} from './server-process.ts';
import { relaxedCommits } from '../support/test-database.ts';

const ADMIN_URL = process.env['TEST_DATABASE_URL'];
/** How long flows are started; CI-sized. MULTI_INSTANCE_FLOW_SECONDS overrides. */
const FLOW_SECONDS = Number(process.env['MULTI_INSTANCE_FLOW_SECONDS'] ?? 15);
const LANES = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('two API instances and one worker process on one PostgreSQL database', {
  skip: !ADMIN_URL && 'needs TEST_DATABASE_URL: the embedded database cannot be shared by several processes',
}, () => {
  const name = `idv_multi_instance_${process.pid}`;
  let dataDir: string | undefined;
  const apis: ServerProcess[] = [];
  let worker: WorkerProcess | undefined;
  let openReceiver: WebhookReceiver | undefined;

  after(async () => {
    worker?.child.kill('SIGKILL');
    await Promise.all(apis.map((api) => api.stop('SIGKILL')));
    await openReceiver?.close();
    await admin(`drop database if exists ${name} with (force)`).catch(() => {});
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('decides every submitted session exactly once and delivers every event at least once', {
    timeout: 180_000,
  }, async () => {
    const started = Date.now();
    const dir = mkdtempSync(join(tmpdir(), 'idv-multi-instance-'));
    dataDir = dir;
    const receiver = await startWebhookReceiver();
    openReceiver = receiver;
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`create database ${name}`);
    await admin(relaxedCommits(name));
    const url = new URL(ADMIN_URL as string);
    url.pathname = `/${name}`;
    const env: Record<string, string> = {
      DATABASE_URL: url.toString(),
      IDV_DATA_DIR: dir,
      // Replicas share their keys: explicit, not generated per data directory.
      IDV_MASTER_KEY: randomBytes(32).toString('base64'),
      IDV_JWT_SECRET: randomBytes(32).toString('base64'),
      // Sandbox outcomes decide without the models; the review still runs on the evidence.
      IDV_VISION: 'off',
      // Evidence the API instances store, the worker process reads: one store all of them share.
      IDV_BLOB_STORE: 'postgres',
      IDV_WORKERS: 'off',
      IDV_RATE_LIMIT_READS: '100000',
      IDV_RATE_LIMIT_WRITES: '100000',
      IDV_WEBHOOK_POLL_MS: '50',
    };
    // The first one creates the demo tenant (and its credentials file); the others start beside it.
    apis.push(await startServerProcess(env));
    const [second, startedWorker] = await Promise.all([startServerProcess(env), startWorkerProcess(env)]);
    apis.push(second);
    worker = startedWorker;
    const credentials = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as {
      api_keys: { sandbox: string };
    };
    const apiKey = credentials.api_keys.sandbox;
    const hook = await fetch(`${apis[0]!.baseUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['*'] }),
    });
    assert.equal(hook.status, 201, await hook.clone().text());
    const secret = String(((await hook.json()) as Record<string, unknown>)['secret']);

    // Every request of every flow goes to either instance: a session created on one is uploaded to,
    // submitted and read on the other as often as not.
    const ledger = emptyLedger();
    const served = [0, 0];
    const until = Date.now() + FLOW_SECONDS * 1000;
    const flows = await runFlowLanes(ledger, {
      lanes: LANES,
      keepGoing: () => Date.now() < until,
      baseUrl: () => {
        const index = Math.random() < 0.5 ? 0 : 1;
        served[index] = (served[index] ?? 0) + 1;
        return apis[index]!.baseUrl;
      },
      apiKey,
      flowTimeoutMs: 60_000,
    });

    // Only the worker process decides and delivers: wait for every decision to reach the receiver, then
    // for the receiver to go quiet.
    const drainDeadline = Date.now() + 60_000;
    let lastCount = -1;
    while (Date.now() < drainDeadline) {
      const decided = new Set(
        receiver
          .deliveries()
          .map((delivery) => JSON.parse(delivery.body) as Record<string, unknown>)
          .filter((payload) => DECISION_EVENTS.includes(String(payload['event'])))
          .map((payload) => String(payload['session_id'])),
      );
      const count = receiver.deliveries().length;
      if ([...ledger.submitted].every((id) => decided.has(id)) && count === lastCount) break;
      lastCount = count;
      await sleep(750);
    }

    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const query: Query = async (sql, params) => (await client.query(sql, params)).rows as never[];
    const findings = await inspectDatabase(query, ledger);
    const jobs = await query<{ session_id: string; count: number; finished: number }>(
      `select session_id, count(*)::int as count, count(finished_at)::int as finished
         from review_jobs where session_id = any($1::text[]) group by session_id`,
      [[...ledger.submitted]],
    );
    await client.end();

    const received = receiver.deliveries();
    const checked = received.map((delivery) => checkDelivery(secret, delivery));
    const perEvent = deliveriesPerEvent(checked.map((delivery) => delivery.webhookId));
    const undelivered = findings.events.filter((event) => !perEvent.has(event.id));
    const duplicates = [...perEvent].filter(([, count]) => count > 1);
    const jobsNotOnce = [...ledger.submitted].filter((id) => {
      const job = jobs.find((row) => row.session_id === id);
      return job?.count !== 1 || job.finished !== 1;
    });

    console.log(
      `[multi-instance] flows: ${flows} (${ledger.created.size} creates, ${ledger.submitted.size} submits; ` +
        `requests to instance A ${served[0]}, B ${served[1]}); review jobs: ${jobs.length}; ` +
        `session events: ${findings.events.length}; deliveries: ${received.length}; ` +
        `duplicates: ${duplicates.length}${duplicates.length ? ` (${duplicates.map(([id, n]) => `${id}×${n}`).join(', ')})` : ''}; ` +
        `undelivered: ${undelivered.length}; total ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    assert.deepEqual(ledger.failures, [], 'a flow met an answer it could not get past');
    assert.equal(ledger.retries, 0, 'no instance went down, so no request needed a retry');
    assert.ok(ledger.submitted.size >= 10, 'too few flows to mean anything');
    assert.deepEqual(findings.missingCreates, [], 'an acknowledged create is gone');
    assert.deepEqual(findings.notDecidedOnce, [], 'a submitted session was not decided exactly once');
    assert.deepEqual(jobsNotOnce, [], 'a submitted session has not exactly one finished review job');
    assert.deepEqual(
      undelivered.map((event) => `${event.type} ${event.session_id} ${event.id}`),
      [],
      'an event never reached the receiver',
    );
    assert.ok(
      checked.every((delivery) => delivery.serviceSignatureValid && delivery.standardSignatureValid),
      'a delivery carried a signature the receiver could not verify',
    );
    for (const api of apis) {
      const startLine = api.records().find((record) => record['message'] === 'server started');
      assert.deepEqual(
        startLine?.['workers'],
        [],
        'an API instance runs background work despite IDV_WORKERS=off',
      );
    }

    // All three stop cleanly.
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.errors());
    for (const api of apis) assert.equal(await api.stop('SIGTERM'), 0, api.errors());
  });
});
