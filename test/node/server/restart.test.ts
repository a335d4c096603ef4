import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServerProcess, startServerProcess } from './server-process.ts';

interface Credentials {
  base_url: string;
  console: { email: string; password: string };
  api_keys: { sandbox: string };
}

const SESSION = { country: 'NLD', flow: 'user', tier: 'tier1', external_user_reference: 'restart-user' };

describe('npm start on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-restart-'));
  let server: ServerProcess | undefined;
  let credentials: Credentials;

  before(async () => {
    server = await startServerProcess({ IDV_DATA_DIR: dataDir });
    credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as Credentials;
  });
  after(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${server!.baseUrl}${path}`, {
      ...init,
      headers: {
        'content-type': 'application/json',
        ...(init.key ? { 'x-api-key': init.key } : {}),
        ...(init.headers as Record<string, string>),
      },
    });

  it('creates the demo tenant once, prints its credentials and writes them with mode 0600', () => {
    assert.match(server!.output(), /Demo tenant created/);
    assert.ok(server!.output().includes(credentials.console.password));
    assert.ok(server!.output().includes(credentials.api_keys.sandbox));
    assert.equal(credentials.base_url, server!.baseUrl);
    assert.match(credentials.api_keys.sandbox, /^sk_sandbox_/);
    assert.equal(statSync(join(dataDir, 'credentials.json')).mode & 0o777, 0o600);
  });

  it('keeps every record across a graceful restart and a crash', async () => {
    const created = await api('/v1/sessions', {
      method: 'POST',
      key: credentials.api_keys.sandbox,
      body: JSON.stringify(SESSION),
    });
    assert.equal(created.status, 201);
    const first = (await created.json()) as { session_id: string };

    assert.equal(await server!.stop('SIGTERM'), 0);
    server = await startServerProcess({ IDV_DATA_DIR: dataDir });
    assert.doesNotMatch(server.output(), /Demo tenant created/, 'a restart must not create a second tenant');
    // The secrets were shown once, at creation; a restart only says where they are.
    assert.ok(!server.output().includes(credentials.console.password), 'a restart printed the password');
    assert.ok(!server.output().includes(credentials.api_keys.sandbox), 'a restart printed the key');
    assert.ok(server.output().includes(`Demo tenant credentials: ${join(dataDir, 'credentials.json')}`));

    const afterRestart = await api(`/v1/sessions/${first.session_id}`, { key: credentials.api_keys.sandbox });
    assert.equal(afterRestart.status, 200);
    assert.equal(
      ((await afterRestart.json()) as { external_user_reference: string }).external_user_reference,
      'restart-user',
    );

    const login = await api('/v1/console/login', {
      method: 'POST',
      body: JSON.stringify({ email: credentials.console.email, password: credentials.console.password }),
    });
    assert.equal(login.status, 200);

    // A crash (no shutdown at all) right after a write: the committed session is still there.
    const second = (await (
      await api('/v1/sessions', {
        method: 'POST',
        key: credentials.api_keys.sandbox,
        body: JSON.stringify(SESSION),
      })
    ).json()) as { session_id: string };
    await server.stop('SIGKILL');
    server = await startServerProcess({ IDV_DATA_DIR: dataDir });
    for (const id of [first.session_id, second.session_id]) {
      assert.equal((await api(`/v1/sessions/${id}`, { key: credentials.api_keys.sandbox })).status, 200, id);
    }
  });

  it('refuses to start in production mode without its keys, naming them', async () => {
    await assert.rejects(
      startServerProcess({
        IDV_DATA_DIR: dataDir,
        NODE_ENV: 'production',
        IDV_BASE_URL: 'https://api.example.com',
      }),
      (error: Error) => /IDV_MASTER_KEY/.test(error.message) && /IDV_JWT_SECRET/.test(error.message),
    );
  });

  it('names a bad configuration value in plain words', async () => {
    await assert.rejects(startServerProcess({ IDV_DATA_DIR: dataDir, PORT: 'eighty' }), (error: Error) =>
      /PORT/.test(error.message),
    );
  });
});
