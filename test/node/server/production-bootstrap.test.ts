import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const CLI = fileURLToPath(new URL('../../../server/cli.ts', import.meta.url));

describe('production mode: the bootstrap command, then a server that prints no secret', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-prod-'));
  const env = {
    NODE_ENV: 'production',
    IDV_DATA_DIR: dataDir,
    IDV_BASE_URL: 'https://api.acme.example',
    IDV_MASTER_KEY: randomBytes(32).toString('base64'),
    IDV_JWT_SECRET: randomBytes(32).toString('base64'),
    IDV_WEBHOOK_WORKER: 'off',
  };
  let server: ServerProcess | undefined;
  after(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      encoding: 'utf8',
    });

  it('explains its usage and refuses a bad e-mail', () => {
    const result = cli('bootstrap', '--tenant', 'Acme');
    assert.equal(result.status, 64);
    assert.match(result.stderr, /--email/);
    assert.equal(cli('bootstrap', '--tenant', 'Acme', '--email', 'not-an-email').status, 64);
    assert.equal(cli('frobnicate').status, 64);
  });

  it('creates the first tenant, admin and keys once, and the server accepts them', async () => {
    const result = cli(
      'bootstrap',
      '--tenant',
      'Acme Ltd',
      '--email',
      'ops@acme.example',
      '--production-key',
    );
    assert.equal(result.status, 0, result.stderr);
    const password = /admin password \(shown once\): (\S+)/.exec(result.stdout)?.[1];
    const key = /production API key \(shown once\): (sk_live_\S+)/.exec(result.stdout)?.[1];
    assert.ok(password && key, result.stdout);

    server = await startServerProcess(env);
    const printed = server.output();
    assert.doesNotMatch(printed, /sk_(live|sandbox)_|password:/i);
    assert.ok(!printed.includes(password), 'production start-up printed the admin password');
    assert.ok(!existsSync(join(dataDir, 'credentials.json')), 'production mode must not write credentials');
    assert.ok(!existsSync(join(dataDir, 'secrets.json')), 'production mode must not generate keys');

    const login = await fetch(`${server.baseUrl}/v1/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@acme.example', password }),
    });
    assert.equal(login.status, 200);
    const sessions = await fetch(`${server.baseUrl}/v1/sessions`, { headers: { 'x-api-key': key } });
    assert.equal(sessions.status, 200);
  });
});
