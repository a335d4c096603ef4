// An API process with its workers off (IDV_WORKERS=off) and a worker-only process (`npm run worker`) on
// one PostgreSQL database: the API accepts and submits a session but decides nothing; the worker process
// decides it and delivers its webhook, then stops cleanly on SIGTERM. PGlite cannot be opened by two
// processes, so this needs a PostgreSQL server (TEST_DATABASE_URL).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { verifyWebhook } from '../../../server/client/src/index.ts';
import {
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
  type WorkerProcess,
} from './server-process.ts';
import { relaxedCommits } from '../support/test-database.ts';

const ADMIN_URL = process.env['TEST_DATABASE_URL'];

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an API-only process and a worker-only process on one PostgreSQL database', {
  skip: !ADMIN_URL && 'needs TEST_DATABASE_URL: the embedded database cannot be shared by two processes',
}, () => {
  const name = `idv_worker_process_${process.pid}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-worker-process-'));
  const deliveries: { body: string; headers: Record<string, string> }[] = [];
  let receiver: Server;
  let api: ServerProcess | undefined;
  let worker: WorkerProcess | undefined;
  let env: Record<string, string>;

  before(async () => {
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`create database ${name}`);
    await admin(relaxedCommits(name));
    const url = new URL(ADMIN_URL as string);
    url.pathname = `/${name}`;
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        deliveries.push({ body, headers: request.headers as Record<string, string> });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    env = {
      DATABASE_URL: url.toString(),
      IDV_DATA_DIR: dataDir,
      // Both processes need the same keys, as replicas do: explicit, not generated per data directory.
      IDV_MASTER_KEY: randomBytes(32).toString('base64'),
      IDV_JWT_SECRET: randomBytes(32).toString('base64'),
      IDV_VISION: 'off',
      IDV_BLOB_STORE: 'postgres',
      // The API process runs none; the worker process ignores the switch (one environment for both).
      IDV_WORKERS: 'off',
    };
  });

  after(async () => {
    worker?.child.kill('SIGKILL');
    await api?.stop('SIGKILL');
    await new Promise((resolve) => receiver?.close(resolve));
    await admin(`drop database if exists ${name} with (force)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the API accepts and submits, the worker process decides and delivers, then both stop with 0', async () => {
    api = await startServerProcess(env);
    // In development mode the `server started` line follows the banner the start helper waits for.
    const started = await eventually('the "server started" line', async () =>
      api!.records().find((record) => record['message'] === 'server started'),
    );
    assert.deepEqual(started?.['workers'], [], 'IDV_WORKERS=off: no background work in the API process');
    assert.equal(started?.['blob_store'], 'postgres');

    const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as {
      api_keys: { sandbox: string };
    };
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${api!.baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': credentials.api_keys.sandbox, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };

    const { port } = receiver.address() as AddressInfo;
    const webhook = await call('POST', '/v1/webhooks', {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['*'],
    });
    assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
    const session = await call('POST', '/v1/sessions', { country: 'NLD', flow: 'user', tier: 'tier1' });
    assert.equal(session.status, 201);
    const id = session.body['session_id'] as string;
    assert.equal(
      (await call('POST', `/v1/sandbox/sessions/${id}/simulate`, { action: 'complete_steps' })).status,
      200,
    );
    const submitted = await call('POST', `/v1/sessions/${id}/submit`, {});
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));

    // Without a worker anywhere, nothing happens: the session waits and no webhook leaves.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal((await call('GET', `/v1/sessions/${id}/result`)).body['status'], 'processing');
    assert.equal(deliveries.length, 0, 'the API process delivered a webhook with IDV_WORKERS=off');

    worker = await startWorkerProcess(env);
    const workerStarted = worker.records().find((record) => record['message'] === 'worker started');
    assert.deepEqual(workerStarted?.['workers'], ['webhooks', 'review', 'sweepers']);
    assert.equal(workerStarted?.['database'], 'postgres');

    const result = await eventually('the decision', async () => {
      const current = await call('GET', `/v1/sessions/${id}/result`);
      return current.body['decision'] ? current.body : undefined;
    });
    assert.equal(result['decision'], 'approved', JSON.stringify(result['checks']));
    assert.equal(result['decided_by'], 'automated');

    const delivered = await eventually('the decision webhook', async () =>
      deliveries.find((delivery) => {
        const payload = JSON.parse(delivery.body) as Record<string, unknown>;
        return payload['session_id'] === id && payload['event'] === 'session.approved' ? delivery : undefined;
      }),
    );
    const event = await verifyWebhook(delivered.body, delivered.headers, webhook.body['secret'] as string);
    assert.equal(event.event === 'session.approved' && event.decision, 'approved');

    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.errors());
    const messages = worker.records().map((record) => record['message']);
    assert.deepEqual(messages.slice(-2), ['shutting down', 'stopped']);
    assert.equal(worker.errors(), '', 'nothing on stderr');
    assert.equal(await api.stop('SIGTERM'), 0);
  });
});
