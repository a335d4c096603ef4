import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ListenError, type ServerDeps, startServer } from '../../../server/runtime/node/start-server.ts';
import type { Database } from '../../../server/store/sql-client.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { freePort } from './server-process.ts';

const ENTRY = fileURLToPath(new URL('../../../server/node.ts', import.meta.url));

describe('start-up: a port already in use', () => {
  let blocker: Server;
  let port: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-busy-'));
  before(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops `npm start` with one plain line on stderr, before creating anything', async () => {
    const child = spawn(process.execPath, [ENTRY], {
      env: {
        PATH: process.env['PATH'] ?? '',
        PORT: String(port),
        IDV_HOST: '127.0.0.1',
        IDV_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.notEqual(code, 0);
    assert.equal(
      stderr,
      `id-verify failed to start: port ${port} on 127.0.0.1 is already in use; stop the other server or set PORT\n`,
    );
    assert.equal(stdout, '', 'no banner, no "server started"');
    // Nothing was built before the bind: no database, no keys, no demo tenant (so the first start that can
    // serve is the one that shows its password).
    for (const name of ['pgdata', 'secrets.json', 'credentials.json']) {
      assert.ok(!existsSync(join(dataDir, name)), `${name} was created`);
    }
  });

  describe('in process', () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness('pglite');
    });
    after(() => h.close());

    /** The harness database, counting every statement the server's workers send. */
    const counted = () => {
      const counter = { statements: 0 };
      const db: Database = {
        ...h.deps.db,
        query: (text, params) => {
          counter.statements += 1;
          return h.deps.db.query(text, params);
        },
        transaction: (work) => {
          counter.statements += 1;
          return h.deps.db.transaction(work);
        },
        close: async () => {},
      };
      return { db, counter };
    };

    it('rejects with a ListenError before any background worker ran a statement', async () => {
      const { db, counter } = counted();
      await assert.rejects(
        startServer({ ...h.deps, db }, { port, host: '127.0.0.1' }),
        (error: Error) => error instanceof ListenError && /already in use/.test(error.message),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(counter.statements, 0);
    });

    it('(control: on a free port the workers do start at once)', async () => {
      const { db, counter } = counted();
      const server = await startServer({ ...h.deps, db }, { port: 0, host: '127.0.0.1' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.ok(counter.statements > 0);
      assert.deepEqual(await server.close(), { graceful: true });
    });

    it('does not even build its dependencies (open, migrate the database) when the port is taken', async () => {
      let built = false;
      await assert.rejects(
        startServer(
          async () => {
            built = true;
            return h.deps;
          },
          { port, host: '127.0.0.1' },
        ),
        ListenError,
      );
      assert.equal(built, false);
    });
  });
});

describe('while the dependencies are being built', () => {
  let h: TestHarness;
  before(async () => {
    h = await createHarness('pglite');
  });
  after(() => h.close());

  it('answers /healthz, and 503 "starting" for the rest, then serves once they are ready', async () => {
    let release: (deps: ServerDeps) => void = () => {};
    const gate = new Promise<ServerDeps>((resolve) => {
      release = resolve;
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // A factory that waits: the port is bound, the app does not exist yet.
    const starting = startServer(() => gate, {
      port,
      host: '127.0.0.1',
      baseUrl: 'https://api.example.test',
      webhookWorker: false,
      reviewWorker: false,
    });
    let healthz: Response | undefined;
    for (let attempt = 0; attempt < 100 && !healthz; attempt += 1) {
      healthz = await fetch(`${base}/healthz`).catch(() => undefined);
      if (!healthz) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(healthz?.status, 200);
    assert.deepEqual(await healthz?.json(), { status: 'ok' });
    for (const path of ['/readyz', '/v1/sessions?limit=1']) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 503, path);
      assert.equal(response.headers.get('retry-after'), '1');
      const problem = await json(response);
      assert.equal(problem['code'], 'service_unavailable');
      assert.equal(problem['detail'], 'Not ready: starting.');
      assert.equal(problem['instance'], path.split('?')[0]);
      assert.equal(problem['type'], 'https://api.example.test/docs/problems/service_unavailable');
    }
    // The server closes the database on close; the harness closes it itself.
    release({ ...h.deps, db: { ...h.deps.db, close: async () => {} } });
    const server = await starting;
    assert.equal((await fetch(`${base}/readyz`)).status, 200);
    assert.deepEqual(await server.close(), { graceful: true });
  });

  it('stops listening when building them fails, and says why', async () => {
    const port = await freePort();
    await assert.rejects(
      startServer(() => Promise.reject(new Error('database unreachable')), { port, host: '127.0.0.1' }),
      /database unreachable/,
    );
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
  });
});
