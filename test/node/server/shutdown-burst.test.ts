// Issue 24, item 2: SIGTERM answers every request whose bytes have reached the server, on both engines,
// then closes. 200 requests, each on its own connection (the audit's client), with SIGTERM during the
// burst and shortly after it; a request on a connection the server's kernel had accepted (the TCP
// handshake completed and the request written) must be answered, never reset. Connections tried after the
// listener closed must be refused (ECONNREFUSED), which a client can retry safely elsewhere.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { testEngines } from '../support/test-database.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

type Outcome =
  | { kind: 'answered'; status: number }
  /** `connected`: the handshake completed, so the server's kernel held the connection and the request. */
  | { kind: 'failed'; code: string; connected: boolean; written: boolean };

/** One request on a fresh connection, noting whether it was connected and written when it failed. */
function request(port: number, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let connected = false;
    let written = false;
    const sent = http.request(
      { host: '127.0.0.1', port, path, agent: false, headers: { 'x-api-key': 'sk_sandbox_nope' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ kind: 'answered', status: response.statusCode ?? 0 }));
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ kind: 'failed', code: error.code ?? error.message, connected, written }),
        );
      },
    );
    sent.on('socket', (socket) =>
      socket.once('connect', () => {
        connected = true;
      }),
    );
    sent.on('finish', () => {
      written = connected;
    });
    sent.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ kind: 'failed', code: error.code ?? error.message, connected, written }),
    );
    sent.end();
  });
}

async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env['TEST_DATABASE_URL'] as string;
  const name = `idv_stop_burst_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
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

const PATHS = ['/readyz', '/v1/sessions', '/healthz', '/v1/sessions/sess_1', '/v1/webhooks?limit=5'];

for (const engine of testEngines()) {
  describe(`SIGTERM during and after a 200-request burst (${engine})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    async function start(): Promise<ServerProcess> {
      const dataDir = mkdtempSync(join(tmpdir(), 'idv-stop-burst-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const database = engine === 'postgres' ? await freshPostgresDatabase() : null;
      if (database) cleanups.push(database.drop);
      const server = await startServerProcess(
        {
          NODE_ENV: 'production',
          IDV_DATA_DIR: dataDir,
          ...(database ? { DATABASE_URL: database.url } : {}),
          IDV_BASE_URL: 'https://api.acme.example',
          IDV_MASTER_KEY: randomBytes(32).toString('base64'),
          IDV_JWT_SECRET: randomBytes(32).toString('base64'),
          IDV_SHUTDOWN_TIMEOUT_MS: '8000',
          IDV_VISION: 'off',
        },
        { startTimeoutMs: 120_000 },
      );
      cleanups.push(async () => void (await server.stop('SIGKILL')));
      return server;
    }

    /** Fires 200 requests at once and sends SIGTERM `signal` after the burst began; returns the outcomes. */
    async function burst(signal: { afterAnswers: number } | { afterMs: number }) {
      const server = await start();
      let gone = false;
      const exited = server.exited.then((code) => {
        gone = true;
        return code;
      });
      // From the signal on, new connections: one every 5 ms for 300 ms (a load balancer that has not yet
      // seen readiness fail), then one every 50 ms until the process is gone. Each is answered (taken
      // before the listener closed) or refused, never accepted and then reset.
      const late: Promise<Outcome>[] = [];
      let signalled = false;
      const terminate = () => {
        if (signalled) return;
        signalled = true;
        server.child.kill('SIGTERM');
        const since = performance.now();
        void (async () => {
          while (!gone) {
            late.push(request(server.port, '/healthz'));
            await new Promise((resolve) => setTimeout(resolve, performance.now() - since < 300 ? 5 : 50));
          }
        })();
      };
      if ('afterMs' in signal) setTimeout(terminate, signal.afterMs);
      let answered = 0;
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          request(server.port, PATHS[index % PATHS.length] as string).then((outcome) => {
            if (outcome.kind === 'answered') answered += 1;
            if ('afterAnswers' in signal && answered === signal.afterAnswers) terminate();
            return outcome;
          }),
        ),
      );
      terminate();
      const code = await exited;
      // One connection after the exit: the listener may close and the process end between two of the
      // probes above (seen when the machine is loaded and a 5 ms timer runs late), and this one must be
      // refused like any other tried after the close.
      late.push(request(server.port, '/healthz'));
      return { outcomes, code, late: await Promise.all(late), server };
    }

    function check(
      t: { diagnostic(message: string): void },
      { outcomes, code, late, server }: Awaited<ReturnType<typeof burst>>,
    ) {
      const answered = outcomes.filter((outcome) => outcome.kind === 'answered');
      const failed = outcomes.filter((outcome) => outcome.kind === 'failed');
      const reset = failed.filter((outcome) => outcome.connected);
      const counts = new Map<string, number>();
      for (const outcome of failed) counts.set(outcome.code, (counts.get(outcome.code) ?? 0) + 1);
      t.diagnostic(
        `${answered.length} answered, ${failed.length} refused or failed (${[...counts].map(([c, n]) => `${c} ×${n}`).join(', ') || 'none'}), ` +
          `${reset.length} reset after the connection was accepted; exit ${code}`,
      );
      assert.equal(code, 0, server.errors());
      assert.deepEqual(reset, [], 'no request on an accepted connection is reset');
      for (const outcome of failed) assert.equal(outcome.kind === 'failed' && outcome.code, 'ECONNREFUSED');
      assert.ok(
        answered.every(
          (outcome) =>
            (outcome.kind === 'answered' && outcome.status < 500) ||
            (outcome.kind === 'answered' && outcome.status === 503),
        ),
      );
      // In the order they were tried: answered while the listener was open, refused once it closed. The one
      // exception TCP leaves: handshakes the kernel completed into the listen backlog after the server's
      // last accept are reset with the listener, never having reached the server. On a quiet machine that
      // is at most one probe (they are 5 ms apart); on a loaded one the server's accepts lag further behind
      // (four were seen in a clean-clone run), so the resets allowed are the probes tried in one unbroken
      // run just before the first refused one, each never answered: a reset among answered probes, or
      // followed by an answer, is a request the server accepted and dropped.
      const firstRefused = late.findIndex(
        (outcome) => outcome.kind === 'failed' && outcome.code === 'ECONNREFUSED',
      );
      const crossed = late.slice(0, Math.max(0, firstRefused)).filter((outcome) => outcome.kind === 'failed');
      t.diagnostic(
        `while stopping: ${firstRefused} new connections before the listener closed (${crossed.length} crossing its close), ${late.length - firstRefused} refused after`,
      );
      assert.ok(firstRefused >= 0, 'the listener closed before the process ended');
      for (const outcome of late.slice(firstRefused))
        assert.deepEqual(outcome, { kind: 'failed', code: 'ECONNREFUSED', connected: false, written: false });
      const backlog = late.slice(firstRefused - crossed.length, firstRefused);
      assert.deepEqual(
        backlog,
        crossed,
        `resets before the close, not in one run just before it: ${JSON.stringify(late)}`,
      );
      for (const outcome of crossed)
        assert.equal(outcome.kind === 'failed' && outcome.code, 'ECONNRESET', JSON.stringify(outcome));
    }

    it('answers every accepted request when SIGTERM comes during the burst', async (t) => {
      check(t, await burst({ afterAnswers: 40 }));
    });

    it('answers every accepted request when SIGTERM comes shortly after the burst', async (t) => {
      check(t, await burst({ afterMs: 30 }));
    });
  });
}
