import { rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DevelopmentCredentials } from '../../server/runtime/node/development-bootstrap.ts';
import { type ServerProcess, startServerProcess } from '../node/server/server-process.ts';

/** The real server the browser end-to-end tests talk to, and the tenant's sandbox key for it. */
export interface E2eServer {
  /** `http://localhost:<port>`: the API and the hosted page (`verify_url` points here). */
  baseUrl: string;
  /** The demo tenant's sandbox key: stays in Node, never sent to the page. */
  sandboxKey: string;
  /** The demo tenant's admin (`tenant_admin`) for `/console` and `POST /v1/console/login`. */
  consoleLogin: { email: string; password: string };
  /** What the server wrote to stdout (start-up banner; logs go to stderr and are not kept). */
  output(): string;
  /** The server's JSON log records so far (request lines, `liveness judged`, …). */
  records(): Record<string, unknown>[];
  /** Stops the process (SIGTERM: drains requests, stops the workers) and deletes its data directory. */
  close(): Promise<void>;
}

/**
 * Starts `npm start`'s entry (server/node.ts) as a child process on a free port, in development mode on
 * the embedded PGlite database in a fresh temporary directory. It is the production code path: the
 * review worker and the expiry sweeper run inside it exactly as they do for a real deployment, so a
 * submitted session reaches its decision on its own. On a first start in development mode the server
 * creates a demo tenant and writes its sandbox key to `<dataDir>/credentials.json`, which is read here.
 *
 * A child process, not `createApp` in the test runner's process: image decoding and Argon2 run on
 * another core than the test runner, and a crash shows as a failed test instead of a dead runner.
 *
 * `options.env` adds to the server's environment (e.g. `IDV_WEBHOOK_ALLOW_LOOPBACK` for a suite whose
 * webhook receiver runs on this machine); the data directory and the mode stay the ones set here.
 *
 * @example
 *   const server = await startE2eServer();
 *   await fetch(`${server.baseUrl}/v1/sessions`, { headers: { 'x-api-key': server.sandboxKey }, … });
 *   await server.close();
 */
export async function startE2eServer(options: { env?: Record<string, string> } = {}): Promise<E2eServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'idv-e2e-'));
  let server: ServerProcess;
  try {
    // A first start creates the database and the demo tenant: seconds on an idle machine, minutes on a
    // busy runner (120 s ran out beside the Node stages on a loaded 2-core machine). No budget of our
    // own: startServerProcess waits for the server's `started` line or its exit.
    server = await startServerProcess({ ...options.env, IDV_DATA_DIR: dataDir, NODE_ENV: 'development' });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  try {
    const credentials = JSON.parse(
      await readFile(join(dataDir, 'credentials.json'), 'utf8'),
    ) as DevelopmentCredentials;
    // If the test runner exits without stopping us (killed, crashed), take the server and its data along.
    const orphanGuard = () => {
      server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    };
    process.once('exit', orphanGuard);
    return {
      baseUrl: server.baseUrl,
      sandboxKey: credentials.api_keys.sandbox,
      consoleLogin: credentials.console,
      output: () => server.output(),
      records: () => server.records(),
      async close() {
        process.off('exit', orphanGuard);
        await server.stop('SIGTERM');
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`the e2e server started without demo credentials:\n${server.output()}`, {
      cause: error,
    });
  }
}
