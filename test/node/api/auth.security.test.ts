import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

const VALID = { country: 'DEU', flow: 'user', tier: 'tier1' };

async function expectCode(response: Response, status: number, code: string) {
  const body = await json(response);
  assert.equal(
    response.status,
    status,
    `expected ${status} ${code}, got ${response.status} ${JSON.stringify(body)}`,
  );
  assert.equal(body['code'], code);
  return body;
}

/** Re-encodes a JWT part after changing its JSON, keeping the original signature. */
function tamperPayload(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  change(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

for (const engine of testEngines()) {
  describe(`authentication and isolation (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      // The stored cost is what one test here checks: the harness hashes at the server's own.
      h = await createHarness(engine, { passwordCost: 'owasp' });
    });
    after(() => h.close());

    describe('API keys', () => {
      it('asks for a credential when none is sent', async () => {
        await expectCode(await h.call('GET', '/v1/sessions'), 401, 'authentication_required');
      });

      it('rejects a key with a broken checksum, an unknown key and a key of the wrong shape', async () => {
        const key = h.tenant.sandboxKey;
        const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
        await expectCode(await h.call('GET', '/v1/sessions', { key: flipped }), 401, 'invalid_api_key');
        await expectCode(
          await h.call('GET', '/v1/sessions', { key: 'sk_sandbox_nothing' }),
          401,
          'invalid_api_key',
        );
        await expectCode(await h.call('GET', '/v1/sessions', { key: 'Bearer abc' }), 401, 'invalid_api_key');
      });

      it('rejects a key that has been revoked, at once', async () => {
        const token = await h.login();
        const created = await json(
          await h.call('POST', '/v1/api-keys', {
            token,
            headers: { 'x-environment': 'sandbox' },
            body: { environment: 'sandbox', name: 'short-lived' },
          }),
        );
        const secret = created['secret'] as string;
        assert.equal((await h.call('GET', '/v1/sessions', { key: secret })).status, 200);
        const revoked = await h.call('DELETE', `/v1/api-keys/${created['api_key_id']}`, {
          token,
          headers: { 'x-environment': 'sandbox' },
        });
        assert.equal(revoked.status, 200);
        await expectCode(await h.call('GET', '/v1/sessions', { key: secret }), 401, 'invalid_api_key');
      });

      it('refuses a key sent by a browser from another site', async () => {
        await expectCode(
          await h.call('GET', '/v1/sessions', {
            key: h.tenant.sandboxKey,
            headers: { origin: 'https://shop.example', 'sec-fetch-site': 'cross-site' },
          }),
          403,
          'browser_request_forbidden',
        );
        await expectCode(
          await h.call('GET', '/v1/sessions', {
            key: h.tenant.sandboxKey,
            headers: { origin: 'https://shop.example' },
          }),
          403,
          'browser_request_forbidden',
        );
      });

      it('answers no CORS preflight on tenant endpoints', async () => {
        const response = await h.call('OPTIONS', '/v1/sessions', {
          headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
        });
        assert.equal(response.headers.get('access-control-allow-origin'), null);
      });
    });

    describe('console tokens', () => {
      it('rejects both credentials at once', async () => {
        const token = await h.login();
        await expectCode(
          await h.call('GET', '/v1/sessions', { key: h.tenant.sandboxKey, token }),
          400,
          'ambiguous_credentials',
        );
      });

      it('rejects an expired token with token_expired', async () => {
        const token = await h.login();
        h.clock.advance(3601 * 1000);
        await expectCode(await h.call('GET', '/v1/me', { token }), 401, 'token_expired');
      });

      it('rejects a token whose claims were changed after signing', async () => {
        const token = await h.login();
        const otherTenant = tamperPayload(token, (claims) => {
          claims['tid'] = h.other.tenantId;
        });
        await expectCode(await h.call('GET', '/v1/me', { token: otherTenant }), 401, 'invalid_token');
      });

      it('rejects an unsigned token (alg none) and garbage', async () => {
        const token = await h.login();
        const [, payload] = token.split('.') as [string, string];
        const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
        await expectCode(await h.call('GET', '/v1/me', { token: none }), 401, 'invalid_token');
        await expectCode(await h.call('GET', '/v1/me', { token: 'not.a.jwt' }), 401, 'invalid_token');
      });

      it('revokes a token on logout', async () => {
        const token = await h.login();
        assert.equal((await h.call('GET', '/v1/me', { token })).status, 200);
        assert.equal((await h.call('POST', '/v1/console/logout', { token })).status, 200);
        await expectCode(await h.call('GET', '/v1/me', { token }), 401, 'invalid_token');
      });

      it('picks the environment with x-environment and rejects an unknown one', async () => {
        const token = await h.login();
        const sandbox = await json(
          await h.call('POST', '/v1/sessions', { key: h.tenant.sandboxKey, body: VALID }),
        );
        const seenInSandbox = await h.call('GET', `/v1/sessions/${sandbox['session_id']}`, {
          token,
          headers: { 'x-environment': 'sandbox' },
        });
        assert.equal(seenInSandbox.status, 200);
        await expectCode(
          await h.call('GET', `/v1/sessions/${sandbox['session_id']}`, { token }),
          404,
          'resource_missing',
        );
        await expectCode(
          await h.call('GET', '/v1/sessions', { token, headers: { 'x-environment': 'staging' } }),
          400,
          'invalid_parameter',
        );
      });
    });

    describe('login', () => {
      beforeEach(() => h.clock.advance(16 * 60 * 1000));

      it('gives one generic error for a wrong password and an unknown account', async () => {
        const wrong = await expectCode(
          await h.call('POST', '/v1/console/login', {
            body: { email: h.tenant.email, password: 'wrong-password' },
          }),
          401,
          'invalid_credentials',
        );
        const unknown = await expectCode(
          await h.call('POST', '/v1/console/login', {
            body: { email: 'nobody@idv.test', password: 'wrong-password' },
          }),
          401,
          'invalid_credentials',
        );
        assert.equal(wrong['detail'], unknown['detail']);
      });

      it('slows, and does not lock, an account after failures (login-throttle.test.ts has the delays)', async () => {
        const guesser = { 'x-test-client-address': '198.51.100.7' };
        for (let attempt = 0; attempt < 5; attempt++) {
          await h.call('POST', '/v1/console/login', {
            headers: guesser,
            body: { email: h.tenant.email, password: 'nope-nope' },
          });
        }
        const slowed = await h.call('POST', '/v1/console/login', {
          headers: guesser,
          body: { email: h.tenant.email, password: h.tenant.password },
        });
        await expectCode(slowed, 429, 'too_many_attempts');
        assert.ok(Number(slowed.headers.get('retry-after')) > 0);
        // The owner at another network is not slowed by the guesser.
        const owner = await h.call('POST', '/v1/console/login', {
          headers: { 'x-test-client-address': '192.0.2.44' },
          body: { email: h.tenant.email, password: h.tenant.password },
        });
        assert.equal(owner.status, 200);
      });

      it('stores the password as an Argon2id PHC string of at least m=19 MiB, t=2', async () => {
        const rows = await h.deps.db.query<{ password_hash: string }>('select password_hash from users');
        for (const { password_hash } of rows) {
          const match = password_hash.match(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/);
          assert.ok(match, `not an Argon2id PHC string: ${password_hash.slice(0, 20)}…`);
          assert.ok(Number(match[1]) >= 19456);
          assert.ok(Number(match[2]) >= 2);
        }
      });
    });

    describe('tenant and environment isolation', () => {
      it("answers 404 for another tenant's session, on every operation", async () => {
        const theirs = await json(
          await h.call('POST', '/v1/sessions', { key: h.other.sandboxKey, body: VALID }),
        );
        const path = `/v1/sessions/${theirs['session_id']}`;
        const key = h.tenant.sandboxKey;
        await expectCode(await h.call('GET', path, { key }), 404, 'resource_missing');
        await expectCode(await h.call('DELETE', path, { key }), 404, 'resource_missing');
        await expectCode(await h.call('POST', `${path}/submit`, { key }), 404, 'resource_missing');
        await expectCode(await h.call('GET', `${path}/result`, { key }), 404, 'resource_missing');
        await expectCode(await h.call('POST', `${path}/verify-url`, { key }), 404, 'resource_missing');
        const list = await json(await h.call('GET', '/v1/sessions?limit=100', { key }));
        assert.ok(!list['data'].some((s: { session_id: string }) => s.session_id === theirs['session_id']));
        // …and the owner still sees it untouched.
        assert.equal(
          (await json(await h.call('GET', path, { key: h.other.sandboxKey })))['status'],
          'created',
        );
      });

      it("answers 404 for the same tenant's session in the other environment", async () => {
        const sandbox = await json(
          await h.call('POST', '/v1/sessions', { key: h.tenant.sandboxKey, body: VALID }),
        );
        await expectCode(
          await h.call('GET', `/v1/sessions/${sandbox['session_id']}`, { key: h.tenant.productionKey }),
          404,
          'resource_missing',
        );
      });

      it("cannot revoke another tenant's API key", async () => {
        const mine = await h.login();
        const theirToken = await h.login(h.other);
        const theirKeys = await json(await h.call('GET', '/v1/api-keys', { token: theirToken }));
        const theirKeyId = theirKeys['data'][0]['api_key_id'];
        await expectCode(
          await h.call('DELETE', `/v1/api-keys/${theirKeyId}`, { token: mine }),
          404,
          'resource_missing',
        );
      });
    });

    describe('idempotency', () => {
      it('replays the first response for a retry with the same key and body', async () => {
        const headers = { 'idempotency-key': `retry-${Math.random()}` };
        const first = await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          body: VALID,
          headers,
        });
        const second = await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          body: VALID,
          headers,
        });
        assert.equal(first.status, 201);
        assert.equal(second.status, 201);
        const [a, b] = [await json(first), await json(second)];
        assert.equal(a['session_id'], b['session_id']);
        assert.equal(second.headers.get('idempotent-replayed'), 'true');
      });

      it('rejects the same key with a different body', async () => {
        const headers = { 'idempotency-key': `reuse-${Math.random()}` };
        await h.call('POST', '/v1/sessions', { key: h.tenant.sandboxKey, body: VALID, headers });
        await expectCode(
          await h.call('POST', '/v1/sessions', {
            key: h.tenant.sandboxKey,
            body: { ...VALID, country: 'FRA' },
            headers,
          }),
          422,
          'idempotency_key_reused',
        );
      });

      it('keeps keys apart per credential and tenant', async () => {
        const headers = { 'idempotency-key': `shared-${Math.random()}` };
        const mine = await json(
          await h.call('POST', '/v1/sessions', { key: h.tenant.sandboxKey, body: VALID, headers }),
        );
        const theirs = await json(
          await h.call('POST', '/v1/sessions', { key: h.other.sandboxKey, body: VALID, headers }),
        );
        assert.notEqual(mine['session_id'], theirs['session_id']);
      });

      it('replays an error response too', async () => {
        const headers = { 'idempotency-key': `error-${Math.random()}` };
        const body = { ...VALID, sandbox: { outcome: 'approved' } };
        await expectCode(
          await h.call('POST', '/v1/sessions', { key: h.tenant.productionKey, body, headers }),
          400,
          'sandbox_parameter_in_production',
        );
        const again = await h.call('POST', '/v1/sessions', { key: h.tenant.productionKey, body, headers });
        await expectCode(again, 400, 'sandbox_parameter_in_production');
      });

      it('rejects an idempotency key over 255 characters', async () => {
        await expectCode(
          await h.call('POST', '/v1/sessions', {
            key: h.tenant.sandboxKey,
            body: VALID,
            headers: { 'idempotency-key': 'k'.repeat(256) },
          }),
          400,
          'invalid_parameter',
        );
      });
    });
  });
}
