import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, TEST_VERIFY_BASE_URL, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

for (const engine of testEngines()) {
  describe(`sessions, the seed flow (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('walks login → /v1/me → create → get → list → cancel → result', async () => {
      const login = await h.call('POST', '/v1/console/login', {
        body: { email: h.tenant.email, password: h.tenant.password },
      });
      assert.equal(login.status, 200);
      const session = await json(login);
      assert.equal(session['expires_in'], 3600);
      assert.equal(session['user'].role, 'tenant_admin');
      assert.equal(session['user'].tenant_id, h.tenant.tenantId);
      assert.ok(session['capabilities'].includes('sessions:create'));
      assert.equal(session['default_path'], '/console/dashboard');

      const me = await json(await h.call('GET', '/v1/me', { token: session['access_token'] }));
      assert.equal(me['user'].email, h.tenant.email);
      assert.deepEqual(me['tenant'], {
        object: 'tenant',
        tenant_id: h.tenant.tenantId,
        name: 'Tenant A',
        status: 'active',
      });

      const created = await h.call('POST', '/v1/sessions', {
        key: h.tenant.sandboxKey,
        body: {
          country: 'DEU',
          flow: 'user',
          tier: 'tier2',
          external_user_reference: 'user-42',
          metadata: { plan: 'gold' },
        },
      });
      assert.equal(created.status, 201);
      const body = await json(created);
      assert.match(body['session_id'], /^sess_[0-9A-Za-z]{20,}$/);
      assert.equal(body['status'], 'created');
      assert.deepEqual(body['required_steps'], ['consent', 'id_document', 'liveness']);
      assert.ok(body['verify_url'].startsWith(`${TEST_VERIFY_BASE_URL}/verify/`));
      assert.match(body['expires_at'], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      assert.equal(body['external_user_reference'], 'user-42');
      assert.deepEqual(body['metadata'], { plan: 'gold' });

      const got = await json(
        await h.call('GET', `/v1/sessions/${body['session_id']}`, { key: h.tenant.sandboxKey }),
      );
      assert.deepEqual(got, body, 'get returns the same object, verify_url included');

      const listed = await json(await h.call('GET', '/v1/sessions', { key: h.tenant.sandboxKey }));
      assert.equal(listed['object'], 'list');
      assert.equal(listed['data'][0].session_id, body['session_id']);

      const cancelled = await h.call('DELETE', `/v1/sessions/${body['session_id']}`, {
        key: h.tenant.sandboxKey,
      });
      assert.equal(cancelled.status, 200);
      const cancelledBody = await json(cancelled);
      assert.equal(cancelledBody['status'], 'cancelled');
      assert.equal(
        cancelledBody['verify_url'],
        undefined,
        'no verify_url once the end-user can no longer act',
      );

      const again = await h.call('DELETE', `/v1/sessions/${body['session_id']}`, {
        key: h.tenant.sandboxKey,
      });
      assert.equal(again.status, 200, 'cancel is idempotent');
      assert.deepEqual(await json(again), cancelledBody);

      const result = await json(
        await h.call('GET', `/v1/sessions/${body['session_id']}/result`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(result['object'], 'session_result');
      assert.equal(result['status'], 'cancelled');
      assert.equal(result['decision'], null);
    });

    it('lists oldest first with order=asc, its cursors following that order, and refuses another order', async () => {
      const key = h.tenant.productionKey;
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await h.call('POST', '/v1/sessions', {
          key,
          body: { country: 'NLD', flow: 'user', tier: 'tier1', external_user_reference: `order-${i}` },
        });
        ids.push((await json(created))['session_id']);
        h.clock.advance(1000); // distinct creation times
      }
      const page = async (query: string) =>
        (await json(await h.call('GET', `/v1/sessions?${query}`, { key })))['data'].map(
          (session: { session_id: string }) => session.session_id,
        );
      const oldest = await page('order=asc&limit=2');
      assert.deepEqual(oldest, ids.slice(0, 2));
      assert.deepEqual(await page(`order=asc&limit=2&starting_after=${ids[1]}`), ids.slice(2));
      assert.deepEqual(await page(`order=asc&limit=2&ending_before=${ids[2]}`), ids.slice(0, 2));
      assert.deepEqual((await page('limit=3')).slice(0, 3), [...ids].reverse());
      const bad = await h.call('GET', '/v1/sessions?order=sideways', { key });
      assert.equal(bad.status, 400);
      assert.equal((await json(bad))['param'], 'order');
    });
  });
}
