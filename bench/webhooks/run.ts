// `npm run bench:webhooks`: webhook throughput (events/s delivered to a local receiver) and latency from
// the decision's commit to the receiver's receipt (p50/p99), with the real worker, fan-out, signing and
// the Node sender over loopback, on the embedded database and, when one answers, on a fresh PostgreSQL
// database. Every number printed is measured in this run.
//
// Options (environment): BENCH_EVENTS (burst size, default 2000), BENCH_RATE (steady events/s, default
// 50), BENCH_STEADY_SECONDS (default 5), BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { systemClock } from '../../server/clock.ts';
import { createFieldCipher } from '../../server/crypto/field-cipher.ts';
import { randomIds } from '../../server/crypto/ids.ts';
import { randomBytes } from '../../server/crypto/primitives.ts';
import { initialStepProgress, requiredSteps } from '../../server/domain/session-steps.ts';
import { nodeWebhookSender } from '../../server/runtime/node/node-webhook-sender.ts';
import { postgresDatabase } from '../../server/runtime/node/pg-database.ts';
import { transitionSession } from '../../server/features/sessions/transition-session.ts';
import { migrate } from '../../server/store/migrate.ts';
import { pgliteDatabase } from '../../server/store/pglite-database.ts';
import { findSessionForUpdate, insertSession, type SessionRow } from '../../server/store/sessions.ts';
import type { Database } from '../../server/store/sql-client.ts';
import { insertTenant } from '../../server/store/tenants.ts';
import { insertWebhook } from '../../server/store/webhooks.ts';
import { createWebhookWorker } from '../../server/workers/webhook-delivery-worker.ts';
import { webhookCipherContext } from '../../server/features/webhooks/signing-secrets.ts';
import { generateWebhookSecret } from '../../server/features/webhooks/webhook-secret.ts';

const BURST = Number(process.env['BENCH_EVENTS'] ?? 2000);
const RATE = Number(process.env['BENCH_RATE'] ?? 50);
const STEADY_SECONDS = Number(process.env['BENCH_STEADY_SECONDS'] ?? 5);
const ADMIN_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Receiver {
  url: string;
  received: Map<string, number>;
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received = new Map<string, number>();
  let waiter: { count: number; resolve: () => void } | null = null;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      received.set((JSON.parse(body) as { session_id: string }).session_id, at);
      response.writeHead(200).end();
      if (waiter && received.size >= waiter.count) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    waitFor: (count) =>
      received.size >= count
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiter = { count, resolve };
          }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function openEngine(
  engine: 'pglite' | 'postgres',
): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'idv-bench-webhooks-'));
    const db = pgliteDatabase(await PGlite.create(join(dir, 'pgdata')));
    await migrate(db);
    return {
      db,
      cleanup: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `idv_bench_webhooks_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = postgresDatabase(url.toString(), { max: 10 });
  await migrate(db);
  return {
    db,
    cleanup: async () => {
      await db.close();
      const again = new pg.Client({ connectionString: ADMIN_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function run(engine: 'pglite' | 'postgres'): Promise<void> {
  const { db, cleanup } = await openEngine(engine);
  const receiver = await startReceiver();
  const deps = {
    config: {
      baseUrl: 'http://localhost',
      verifyBaseUrl: 'http://localhost',
      mode: 'development' as const,
      rateLimits: { reads: 1, writes: 1 },
      accessTokenTtlSeconds: 3600,
    },
    db,
    clock: systemClock,
    ids: randomIds,
    cipher: await createFieldCipher(randomBytes(32)),
    webhookSender: nodeWebhookSender(),
  };
  const tenantId = randomIds('ten');
  const now = new Date();
  await insertTenant(db, { id: tenantId, name: 'Bench', now });
  const webhookId = randomIds('wh');
  await insertWebhook(db, {
    id: webhookId,
    tenant_id: tenantId,
    environment: 'production',
    url: receiver.url,
    events: ['session.approved'],
    description: null,
    secret_enc: await deps.cipher.encrypt(generateWebhookSecret(), webhookCipherContext.secret(webhookId)),
    created_at: new Date(now.getTime() - 1000),
  });

  // Sessions waiting in `processing`, so the timed part is only the decision (one transaction each).
  const total = BURST + RATE * STEADY_SECONDS;
  const sessions: string[] = [];
  for (let i = 0; i < total; i++) {
    const id = randomIds('sess');
    const steps = requiredSteps('user', 'tier1');
    await db.transaction(async (tx) => {
      let row: SessionRow = await insertSession(tx, {
        id,
        tenant_id: tenantId,
        environment: 'production',
        country: 'DEU',
        flow: 'user',
        tier: 'tier1',
        external_user_ref_enc: null,
        external_user_ref_index: null,
        redirect_url: null,
        metadata_enc: null,
        required_steps: steps,
        steps: initialStepProgress(steps),
        verify_token_hash: null,
        verify_token_nonce: null,
        sandbox: null,
        expires_at: new Date(Date.now() + 86_400_000),
        created_at: new Date(),
      });
      row = await transitionSession(tx, deps, row, 'collecting', 'end_user_started');
      await transitionSession(tx, deps, row, 'processing', 'submitted');
    });
    sessions.push(id);
  }
  const worker = createWebhookWorker(deps);
  // Fan the set-up events out (they match no subscription) before the clock starts.
  while ((await worker.runOnce()).fannedOut > 0) {}
  worker.start();

  const decidedAt = new Map<string, number>();
  const decide = async (id: string) => {
    await db.transaction(async (tx) => {
      const row = (await findSessionForUpdate(tx, { tenantId, environment: 'production' }, id)) as SessionRow;
      await transitionSession(tx, deps, row, 'approved', 'decided', {
        decision: 'approved',
        decided_at: new Date(),
      });
    });
    decidedAt.set(id, performance.timeOrigin + performance.now());
  };
  const latencies = (ids: string[]) =>
    ids
      .map((id) => (receiver.received.get(id) as number) - (decidedAt.get(id) as number))
      .sort((a, b) => a - b);

  // 1. Burst: every decision at once (8 producers), throughput from the first decision to the last receipt.
  const burst = sessions.slice(0, BURST);
  const burstStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < burst.length) await decide(burst[next++] as string);
    }),
  );
  const decisionsDone = performance.now();
  await receiver.waitFor(burst.length);
  const burstSeconds = (performance.now() - burstStart) / 1000;
  const burstLatency = latencies(burst);

  // 2. Steady: RATE decisions per second, latency as a receiver sees it under ordinary load.
  const steady = sessions.slice(BURST);
  const steadyStart = performance.now();
  for (const [index, id] of steady.entries()) {
    const due = steadyStart + (index * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await decide(id);
  }
  await receiver.waitFor(total);
  const steadyLatency = latencies(steady);
  await worker.stop();

  const failed = await db.query<{ n: number }>(
    `select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`,
  );
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  process.stdout.write(
    [
      `${engine === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}:`,
      `  burst of ${BURST}: ${(BURST / burstSeconds).toFixed(0)} events/s delivered (decisions committed at ${(BURST / ((decisionsDone - burstStart) / 1000)).toFixed(0)}/s), decision→receipt p50 ${ms(percentile(burstLatency, 50))}, p99 ${ms(percentile(burstLatency, 99))}`,
      `  steady ${RATE}/s for ${STEADY_SECONDS} s: decision→receipt p50 ${ms(percentile(steadyLatency, 50))}, p99 ${ms(percentile(steadyLatency, 99))} (poll interval 250 ms when idle)`,
      `  deliveries not succeeded: ${failed[0]?.n ?? '?'}`,
      '',
    ].join('\n'),
  );
  await receiver.close();
  await cleanup();
}

await run('pglite');
if (await postgresAnswers()) await run('postgres');
else process.stdout.write(`PostgreSQL: skipped (nothing answers at ${ADMIN_URL})\n`);
