// Issue 24, item 7: SIGKILL the server at random moments of its first start on an empty data directory,
// while it creates the embedded database in its init child process, several times over. Each kill must
// take the init child with it, and the next start must begin clean (no `ENOTEMPTY … pgdata.initializing`
// from a leftover still being written); after the loop a normal start serves, and no init child is left.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { freePort, startServerProcess } from './server-process.ts';

/** Kills in the loop: each costs a second or two of a start cut short; INIT_KILL_LOOP_KILLS overrides. */
const KILLS = Number(process.env['INIT_KILL_LOOP_KILLS'] ?? 6);
const ENTRY = fileURLToPath(new URL('../../../server/node.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pids of init children (embedded-database-init.ts) working on `dataDir`, whoever their parent is now. */
function initChildrenOf(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes('embedded-database-init.ts') && cmdline.includes(dataDir))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Waits up to `ms` for `check` to hold; answers whether it did. */
async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  for (const started = performance.now(); performance.now() - started < ms; await sleep(50)) {
    if (check()) return true;
  }
  return check();
}

describe('killing the server while it creates its embedded database', {
  skip: process.platform !== 'linux' && 'reads /proc',
}, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-init-kill-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    PATH: process.env['PATH'] ?? '',
    IDV_HOST: '127.0.0.1',
    NODE_ENV: 'production',
    IDV_DATA_DIR: dataDir,
    IDV_BASE_URL: 'https://api.acme.example',
    IDV_MASTER_KEY: randomBytes(32).toString('base64'),
    IDV_JWT_SECRET: randomBytes(32).toString('base64'),
    IDV_VISION: 'off',
  };

  it(`leaves no init child behind, ${KILLS} times, and the next start begins clean`, async (t) => {
    const moments: string[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      if (existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))) break; // a start got through: nothing left to cut
      const server = spawn(process.execPath, [ENTRY], {
        env: { ...env, PORT: String(await freePort()) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      server.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      // Mostly while the child works (initdb, then the migrations), sometimes before it is even spawned.
      const sawChild =
        kill % 3 === 2 ? false : await eventually(() => initChildrenOf(dataDir).length > 0, 30_000);
      const delay = Math.round(Math.random() * (sawChild ? 4000 : 1500));
      await sleep(delay);
      server.kill('SIGKILL');
      await exited;
      moments.push(`${sawChild ? 'init child +' : 'start +'}${delay} ms`);
      assert.doesNotMatch(
        stderr,
        /ENOTEMPTY|EEXIST|failed/i,
        `start ${kill + 1} failed on its own: ${stderr}`,
      );
      assert.ok(
        await eventually(() => initChildrenOf(dataDir).length === 0, 3000),
        `the init child outlived its server (kill ${kill + 1}): ${initChildrenOf(dataDir)}`,
      );
    }
    t.diagnostic(`killed at: ${moments.join(', ')}`);

    const server = await startServerProcess(env, { startTimeoutMs: 180_000 });
    try {
      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(initChildrenOf(dataDir), [], 'no init child left running');
      const leftovers = readdirSync(dataDir).filter((name) => name.startsWith('pgdata.'));
      assert.deepEqual(leftovers, [], 'the half-made directories were discarded');
    } finally {
      assert.equal(await server.stop(), 0, server.errors());
    }
  });
});
