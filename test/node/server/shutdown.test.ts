import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../../server/runtime/node/start-server.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

type Outcome =
  | { id: string; kind: 'response'; status: number; connectionClose: boolean }
  | { id: string; kind: 'error'; code: string };

/** One GET over `agent`, tagged with our own request id so the server's log can be matched to it. */
function get(agent: http.Agent, port: number, path: string, id: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = http.get(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        headers: { 'x-request-id': id, 'x-api-key': 'sk_sandbox_nope' },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            id,
            kind: 'response',
            status: response.statusCode ?? 0,
            connectionClose: response.headers.connection === 'close',
          }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ id, kind: 'error', code: error.code ?? error.message }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ id, kind: 'error', code: error.code ?? error.message }),
    );
  });
}

/** `ECONNREFUSED ×12, ECONNRESET ×3`: how the requests the server never accepted failed. */
function countsByCode(errors: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const error of errors)
    if (error.kind === 'error') counts.set(error.code, (counts.get(error.code) ?? 0) + 1);
  return [...counts].map(([code, count]) => `${code} ×${count}`).join(', ');
}

describe('stopping on SIGTERM', () => {
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];
  after(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A production-mode server (stdout is JSON lines only) on a fresh embedded database. */
  async function start(): Promise<ServerProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), 'idv-stop-'));
    dataDirs.push(dataDir);
    const server = await startServerProcess({
      NODE_ENV: 'production',
      IDV_DATA_DIR: dataDir,
      IDV_BASE_URL: 'https://api.acme.example',
      IDV_MASTER_KEY: randomBytes(32).toString('base64'),
      IDV_JWT_SECRET: randomBytes(32).toString('base64'),
      IDV_SHUTDOWN_TIMEOUT_MS: '8000',
      IDV_VISION: 'off',
    });
    servers.push(server);
    return server;
  }

  it('answers every accepted request of a 200-request burst cut by SIGTERM, then exits 0', async (t) => {
    const server = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const paths = ['/readyz', '/v1/sessions', '/healthz', '/v1/sessions/sess_1', '/v1/webhooks?limit=5'];
    let answered = 0;
    let signalledAt = 0;
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        get(agent, server.port, paths[index % paths.length] as string, `burst-${index}`).then((outcome) => {
          if (outcome.kind === 'response') answered += 1;
          // In the middle: a third answered, the rest in flight or queued on the client.
          if (answered === 60 && !signalledAt) {
            signalledAt = performance.now();
            server.child.kill('SIGTERM');
          }
          return outcome;
        }),
      ),
    );
    const code = await server.exited;
    const exitedAfterMs = Math.round(performance.now() - signalledAt);
    agent.destroy();

    const records = server.records();
    const accepted = new Set(
      records
        .filter((record) => record['message'] === 'request')
        .map((record) => String(record['request_id'])),
    );
    const responses = outcomes.filter((outcome) => outcome.kind === 'response');
    const errors = outcomes.filter((outcome) => outcome.kind === 'error');
    const resetAfterAccept = errors.filter((outcome) => accepted.has(outcome.id));
    const stopLine = records.findIndex((record) => record['message'] === 'shutting down');
    const answeredAfterSignal = records
      .slice(stopLine + 1)
      .filter((record) => record['message'] === 'request').length;
    t.diagnostic(
      `200 requests in ${Math.round(performance.now() - started)} ms: ${responses.length} answered ` +
        `(${answeredAfterSignal} of them after SIGTERM, ${responses.filter((o) => o.kind === 'response' && o.connectionClose).length} with connection: close), ` +
        `${errors.length} never accepted (${countsByCode(errors) || 'none'}), ` +
        `${resetAfterAccept.length} accepted then reset; exit ${code} ${exitedAfterMs} ms after SIGTERM`,
    );

    assert.equal(code, 0, server.errors());
    assert.equal(
      resetAfterAccept.length,
      0,
      `accepted but not answered: ${resetAfterAccept.map((o) => o.id)}`,
    );
    for (const response of responses)
      assert.ok(accepted.has(response.id), `answered but not logged: ${response.id}`);
    assert.equal(responses.length, accepted.size);
    assert.ok(stopLine > 0, 'the shutdown is logged');
    assert.ok(answeredAfterSignal > 0, 'requests in flight at SIGTERM were answered');
    for (const error of errors) {
      assert.ok(
        error.kind === 'error' &&
          ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up'].includes(error.code),
        JSON.stringify(error),
      );
    }
    // Readiness failed before anything closed: no probe answered "ready" after the signal.
    for (const record of records.slice(stopLine + 1)) {
      if (record['message'] === 'request' && record['route'] === '/readyz')
        assert.equal(record['status'], 503);
    }
    const messages = records.map((record) => record['message']);
    assert.deepEqual(
      messages.filter((message) => message !== 'request'),
      ['server started', 'shutting down', 'stopped'],
    );
    // Production stdout is JSON lines only: every line parsed.
    assert.equal(records.length, server.output().trim().split('\n').length);
  });

  it('is not held open by a client that keeps reusing its keep-alive connection', async (t) => {
    const server = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let signalledAt = 0;
    let sent = 0;
    let last: Outcome | undefined;
    // Back to back on one connection, before and after the signal, until the server is gone.
    for (;;) {
      last = await get(agent, server.port, '/healthz', `loop-${sent}`);
      sent += 1;
      if (last.kind === 'error') break;
      if (sent === 20) {
        signalledAt = performance.now();
        server.child.kill('SIGTERM');
      }
      if (sent > 20_000) break;
    }
    const code = await server.exited;
    const exitedAfterMs = Math.round(performance.now() - signalledAt);
    agent.destroy();
    t.diagnostic(
      `${sent} requests on one keep-alive connection; exit ${code} ${exitedAfterMs} ms after SIGTERM`,
    );
    assert.equal(code, 0, server.errors());
    assert.ok(exitedAfterMs < 6000, `took ${exitedAfterMs} ms, near the 8 s deadline: the client held it`);
    assert.equal(last?.kind, 'error', 'the client ends up refused, not served forever');
  });
});

// Not in the mock parity run (test/node/mock/support/parity-shard.ts imports every file that calls
// createHarness, this one too, into a process where MSW intercepts every socket): MSW's `net` interceptor
// answers `net.connect` at once with a socket of its own and opens the real connection only when the HTTP
// request written on it is complete. A half-sent request then never reaches the server (the stop sees no
// stuck client and ends gracefully), and completing it after the stop connects to a closed listener
// (ECONNREFUSED "right after start"). That is what failed in full CI runs and never when this file ran
// alone: these tests are about the server's own sockets, which the mock transport does not claim to be.
describe('stopping, in process', {
  skip: process.env['IDV_TEST_TRANSPORT'] === 'mock' ? 'MSW intercepts raw sockets in the parity run' : false,
}, () => {
  let h: TestHarness;
  before(async () => {
    h = await createHarness('pglite');
  });
  after(() => h.close());

  /** The harness database, which the server must not close under the harness. */
  const deps = () => ({ ...h.deps, db: { ...h.deps.db, close: async () => {} } });
  /** A server on the harness, without background workers, on a free port of 127.0.0.1. */
  const start = (options: { shutdownTimeoutMs?: number } = {}) =>
    startServer(deps(), {
      port: 0,
      host: '127.0.0.1',
      webhookWorker: false,
      reviewWorker: false,
      ...options,
    });

  /** A connection that has sent the start of a request: accepted, not yet complete. */
  const halfRequest = (port: number, head: string) =>
    new Promise<Socket & { received: () => string; ended: Promise<void> }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.off('error', reject);
        socket.write(head);
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString('latin1');
        });
        const ended = new Promise<void>((done) => socket.once('close', () => done()));
        resolve(Object.assign(socket, { received: () => received, ended }));
      });
      socket.once('error', reject);
    });

  it('fails readiness first and still answers a request accepted before the stop, with connection: close', async () => {
    const server = await start();
    const pending = await halfRequest(server.port, 'GET /readyz HTTP/1.1\r\nHost: localhost\r\n');
    // The server must have read the partial head before the stop, on a busy machine too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopping = server.close();
    // The listener first takes what waits in its accept queue, then closes (ACCEPT_DRAIN_MAX_MS at most):
    // from then on a new connection is refused.
    // Probes further and further apart (50 ms, doubling to 800 ms): the drain ends after 25 ms without a
    // new connection, and each probe counts as one; probes at a fixed pace held the listener open to its
    // cap whenever a loaded machine's timers fired late (then 4 s were not enough to see it close). The
    // listener must close in the first lull; the 30 s only bound a failing run.
    const refusedBy = performance.now() + 30_000;
    let refused = false;
    for (let pause = 50; !refused && performance.now() < refusedBy; pause = Math.min(pause * 2, 800)) {
      refused = await fetch(`http://127.0.0.1:${server.port}/healthz`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, pause));
    }
    assert.ok(refused, 'no new connection is accepted once the listener closed');
    pending.write('\r\n');
    await pending.ended;
    const answer = pending.received();
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.match(answer, /Not ready: shutting_down\./);
    assert.deepEqual(await stopping, { graceful: true });
  });

  it('cuts what is still open at the deadline and says so', async () => {
    const server = await start({ shutdownTimeoutMs: 300 });
    // Never finished: only the deadline ends it.
    const stuck = await halfRequest(server.port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    // The server must have read the partial head before the stop, on a busy machine too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    assert.deepEqual(await server.close(), { graceful: false });
    assert.ok(performance.now() - started < 2000);
    await stuck.ended;
  });

  it('takes the connections queued while its event loop was busy before it closes the listener', async () => {
    const server = await start();
    // From the check phase (a poll phase has just run), the stop begins and 20 clients connect while the
    // event loop is busy for longer than the lull the listener closes in. The kernel queues their
    // connections; no poll runs before the stop's next timer, which finds no new accept: a lull that is
    // none. Each must be taken and answered, never reset with the listener.
    await new Promise((resolve) => setImmediate(resolve));
    const stopping = server.close();
    const answers = Array.from(
      { length: 20 },
      () =>
        new Promise<string>((resolve) => {
          const request = http.get(
            { host: '127.0.0.1', port: server.port, path: '/healthz', agent: false },
            (response) => {
              response.resume();
              response.on('end', () => resolve(`answered ${response.statusCode}`));
            },
          );
          request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        }),
    );
    const busyUntil = performance.now() + 60;
    while (performance.now() < busyUntil) {
      // The event loop stays busy: no poll phase, no accept.
    }
    const outcomes = await Promise.all(answers);
    assert.deepEqual(
      outcomes.filter((outcome) => !outcome.startsWith('answered')),
      [],
      'no queued connection is reset',
    );
    assert.deepEqual(await stopping, { graceful: true });
  });
});
