import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from './support/receiver.ts';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The real server (`node server/node.ts`) on an embedded database in `dataDir`. */
async function startServerProcess(
  dataDir: string,
  port: number,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/node.ts'], {
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), IDV_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Hosted page:')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return child;
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function until<T>(probe: () => Promise<T | null>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhook delivery across a server crash (child process, embedded database)', () => {
  let dataDir: string;
  let child: ChildProcess | null = null;
  let receiver: Receiver | null = null;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'idv-webhook-crash-'));
  });
  after(async () => {
    if (child) await kill(child);
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers events written before a kill after the restart, and the log shows every attempt', async () => {
    const port = await freePort();
    const receiverPort = await freePort();
    const base = `http://127.0.0.1:${port}`;

    // 1. API only (no worker): the state changes land in the outbox and nothing is delivered yet.
    child = await startServerProcess(dataDir, port, { IDV_WEBHOOK_WORKER: 'off' });
    const credentials = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8'));
    const key: string = credentials.api_keys.sandbox;
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const webhook = await call('POST', '/v1/webhooks', {
      url: `http://127.0.0.1:${receiverPort}/hook`,
      events: ['session.created', 'session.cancelled'],
    });
    assert.equal(webhook.status, 201);
    const webhookId: string = webhook.body['webhook_id'];
    const session = await call('POST', '/v1/sessions', { country: 'FRA', flow: 'user', tier: 'tier1' });
    assert.equal(session.status, 201);
    const cancelled = await call('DELETE', `/v1/sessions/${session.body['session_id']}`);
    assert.equal(cancelled.body['status'], 'cancelled');
    await kill(child);

    // 2. Restart with the worker while the receiver is down: the first attempts fail and are logged.
    child = await startServerProcess(dataDir, port, { IDV_WEBHOOK_POLL_MS: '50' });
    const firstAttempts = await until(
      async () => {
        const log = await call('GET', `/v1/webhooks/${webhookId}/deliveries`);
        const data = log.body['data'] as Record<string, any>[];
        return data.length === 2 && data.every((d) => d['attempts'][0]?.status === 'failed') ? data : null;
      },
      15_000,
      'the first failed attempts',
    );
    for (const delivery of firstAttempts) {
      assert.equal(delivery['attempts'][0].error_class, 'connection_refused');
      assert.equal(delivery['status'], 'pending');
      assert.ok(delivery['next_attempt_at'], 'a retry is scheduled');
    }
    // 3. Crash again between the failed attempt and its retry.
    await kill(child);

    // 4. The receiver comes up, the server restarts: the scheduled retry (5 s ± 15 %) delivers.
    receiver = await startReceiver(receiverPort);
    child = await startServerProcess(dataDir, port, { IDV_WEBHOOK_POLL_MS: '50' });
    const received = await receiver.waitFor(2, 20_000);
    const kinds = received.map((request) => JSON.parse(request.body).event).sort();
    assert.deepEqual(kinds, ['session.cancelled', 'session.created']);

    const final = await until(
      async () => {
        const log = await call('GET', `/v1/webhooks/${webhookId}/deliveries`);
        const data = log.body['data'] as Record<string, any>[];
        return data.every((d) => d['status'] === 'succeeded') ? data : null;
      },
      5_000,
      'the deliveries to be marked succeeded',
    );
    for (const delivery of final) {
      assert.deepEqual(
        delivery['attempts'].map((a: Record<string, any>) => [
          a.attempt,
          a.status,
          a.response_status,
          a.error_class,
        ]),
        [
          [1, 'failed', null, 'connection_refused'],
          [2, 'succeeded', 200, null],
        ],
      );
    }
    assert.equal(receiver.requests.length, 2, 'each event arrived once');
  });
});
