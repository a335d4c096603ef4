import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { argon2PasswordHasher } from '../../../server/runtime/node/argon2-password-hasher.ts';
import { formatApiKey } from '../../../server/domain/api-key-format.ts';
import { MOCK_FIXTURES } from '../../../mock/index.ts';
import { type MockServer, startMockServer } from '../../../mock/node.ts';

const ORIGIN = 'https://api.mock-happy.idv.test';

async function call(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'x-api-key': MOCK_FIXTURES.sandboxKey, ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${ORIGIN}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, any>,
  };
}

describe('the mock API under setupServer', () => {
  let server: MockServer;
  before(async () => {
    server = await startMockServer({ origin: ORIGIN, background: false });
  });
  after(() => server.close());

  it('documents a sandbox key that is well formed (its checksum is the one formatApiKey computes)', () => {
    assert.equal(formatApiKey('sandbox', 'MockKey1', 'OfflineSandboxSecret01'), MOCK_FIXTURES.sandboxKey);
  });

  it('logs the fixture admin in with the documented password and shows the fixture tenant', async () => {
    const login = await call('/v1/console/login', {
      method: 'POST',
      headers: { 'x-api-key': '' },
      body: { email: MOCK_FIXTURES.adminEmail, password: MOCK_FIXTURES.adminPassword },
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body['user'].user_id, MOCK_FIXTURES.adminUserId);
    assert.equal(login.body['user'].tenant_id, MOCK_FIXTURES.tenantId);
    const me = await fetch(`${ORIGIN}/v1/me`, {
      headers: { authorization: `Bearer ${login.body['access_token']}` },
    });
    assert.equal(((await me.json()) as Record<string, any>)['tenant'].name, MOCK_FIXTURES.tenantName);
  });

  it('stores the admin password as the same Argon2id PHC string the Node server writes, verifiable by it', async () => {
    const [row] = await server.mock.deps.db.query<{ password_hash: string }>(
      'select password_hash from users where id = $1',
      [MOCK_FIXTURES.adminUserId],
    );
    assert.match(
      row!.password_hash,
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    assert.equal(await argon2PasswordHasher.verify(row!.password_hash, MOCK_FIXTURES.adminPassword), true);
  });

  it('answers the sandbox key with a session whose verify_url is on the mock origin', async () => {
    const created = await call('/v1/sessions', {
      method: 'POST',
      body: { country: 'DEU', flow: 'user', tier: 'tier2' },
    });
    assert.equal(created.status, 201);
    assert.ok(created.body['verify_url'].startsWith(`${ORIGIN}/verify/`));
    assert.match(created.headers.get('x-request-id') ?? '', /^req_/);
  });

  it('fails exactly the next N matching requests with an RFC 9457 body, then recovers', async () => {
    server.mock.scenarios.failNext(2, 503, { path: '/v1/sessions' });
    const first = await call('/v1/sessions');
    assert.equal(first.status, 503);
    assert.equal(first.headers.get('content-type'), 'application/problem+json');
    assert.equal(first.headers.get('retry-after'), '1');
    assert.equal(first.body['code'], 'service_unavailable');
    assert.equal(first.body['status'], 503);
    assert.equal(first.body['instance'], '/v1/sessions');
    assert.equal(
      (await call('/v1/me', { headers: { 'x-api-key': '' } })).status,
      401,
      'other paths unaffected',
    );
    assert.equal((await call('/v1/sessions')).status, 503);
    assert.equal((await call('/v1/sessions')).status, 200);
    assert.deepEqual(server.mock.scenarios.state.failures, []);
  });

  it('fails with a chosen code and refuses a code whose status disagrees', async () => {
    server.mock.scenarios.failNext(1, 429, { code: 'too_many_attempts', retryAfterSeconds: 7 });
    const limited = await call('/v1/sessions');
    assert.equal(limited.status, 429);
    assert.equal(limited.body['code'], 'too_many_attempts');
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.throws(() => server.mock.scenarios.failNext(1, 500, { code: 'resource_missing' }), RangeError);
    assert.throws(() => server.mock.scenarios.failNext(0, 500), RangeError);
  });

  it('adds latency to matching requests only', async () => {
    // A latency far above what an unslowed request takes on a loaded runner (one took 300 ms in CI).
    server.mock.scenarios.setLatency(1500, { path: /^\/v1\/sessions$/ });
    let started = performance.now();
    await call('/v1/sessions');
    assert.ok(performance.now() - started >= 1490, 'slowed');
    started = performance.now();
    await call('/v1/webhooks');
    assert.ok(performance.now() - started < 1490, 'not slowed');
    server.mock.scenarios.setLatency(0);
    assert.equal(server.mock.scenarios.state.latency, null);
  });

  it('forces the review outcome of sessions created while set, through the real engine', async () => {
    server.mock.scenarios.forceOutcome('rejected', { reasonCodes: ['document_expired'] });
    const created = await call('/v1/sessions', {
      method: 'POST',
      body: { country: 'DEU', flow: 'user', tier: 'tier1' },
    });
    server.mock.scenarios.forceOutcome(null);
    const id = created.body['session_id'];
    const simulated = await call(`/v1/sandbox/sessions/${id}/simulate`, {
      method: 'POST',
      body: { action: 'submit' },
    });
    assert.equal(simulated.status, 200, JSON.stringify(simulated.body));
    await server.mock.flush();
    const result = await call(`/v1/sessions/${id}/result`);
    assert.equal(result.body['decision'], 'rejected');
    const codes = result.body['reasons'].map((reason: { code: string }) => reason.code);
    assert.ok(codes.includes('sandbox_forced') || codes.includes('document_expired'), JSON.stringify(codes));

    const explicit = await call('/v1/sessions', {
      method: 'POST',
      body: { country: 'DEU', flow: 'user', tier: 'tier1', sandbox: { outcome: 'approved' } },
    });
    assert.equal(explicit.status, 201, 'an explicit sandbox block is left alone');
  });

  it('expires a session now, with the session.expired event', async () => {
    const created = await call('/v1/sessions', {
      method: 'POST',
      body: { country: 'DEU', flow: 'user', tier: 'tier1' },
    });
    const id = created.body['session_id'];
    await server.mock.scenarios.expireSession(id);
    const got = await call(`/v1/sessions/${id}`);
    assert.equal(got.body['status'], 'expired');
    const events = await call(`/v1/events?limit=100`);
    assert.ok(
      events.body['data'].some(
        (event: Record<string, any>) =>
          event['type'] === 'session.expired' || event['event'] === 'session.expired',
      ),
      JSON.stringify(events.body['data'][0]),
    );
  });

  it('leaves requests to other origins to the network', async () => {
    await assert.rejects(fetch('http://127.0.0.1:9/nothing-listens-here'));
  });
});
