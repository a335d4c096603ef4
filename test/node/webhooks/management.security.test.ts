import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Role } from '../../../server/domain/capabilities.ts';
import { insertUser } from '../../../server/store/users.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { createWebhook } from './support/webhook-harness.ts';

for (const engine of testEngines()) {
  describe(`webhook management security (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    async function tokenOf(role: Role): Promise<string> {
      const email = `${role}-${Math.random().toString(36).slice(2)}@tenant.idv.test`;
      await insertUser(h.deps.db, {
        id: h.deps.ids('usr'),
        tenantId: h.tenant.tenantId,
        email,
        passwordHash: await h.deps.passwords.hash('correct horse battery'),
        role,
        now: h.clock.now(),
      });
      const login = await json(
        await h.call('POST', '/v1/console/login', { body: { email, password: 'correct horse battery' } }),
      );
      return login['access_token'];
    }

    it('lets a viewer read but not write, and a reviewer do neither', async () => {
      const webhook = await createWebhook(h, { url: 'https://a.example/h' }, h.tenant.productionKey);
      const viewer = await tokenOf('viewer');
      assert.equal((await h.call('GET', '/v1/webhooks', { token: viewer })).status, 200);
      assert.equal(
        (await h.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: viewer })).status,
        200,
      );
      assert.equal((await h.call('GET', '/v1/events', { token: viewer })).status, 200);
      for (const [method, path] of [
        ['POST', '/v1/webhooks'],
        ['DELETE', `/v1/webhooks/${webhook.id}`],
        ['POST', `/v1/webhooks/${webhook.id}/rotate-secret`],
        ['POST', `/v1/webhooks/${webhook.id}/test`],
      ] as const) {
        const response = await h.call(method, path, {
          token: viewer,
          ...(method === 'POST' && path === '/v1/webhooks'
            ? { body: { url: 'https://a.example', events: ['*'] } }
            : {}),
        });
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.equal((await json(response))['code'], 'insufficient_capability');
      }
      const reviewer = await tokenOf('reviewer');
      assert.equal((await h.call('GET', '/v1/webhooks', { token: reviewer })).status, 403);
      assert.equal((await h.call('GET', '/v1/events', { token: reviewer })).status, 403);
      const developer = await tokenOf('developer');
      const made = await h.call('POST', '/v1/webhooks', {
        token: developer,
        headers: { 'x-environment': 'sandbox' },
        body: { url: 'https://a.example/dev', events: ['*'] },
      });
      assert.equal(made.status, 201);
    });

    it('keeps tenants and environments apart: another one’s webhook, delivery or event is 404', async () => {
      const mine = await createWebhook(h, { url: 'https://a.example/mine' });
      await h.call('POST', '/v1/sessions', {
        key: h.tenant.sandboxKey,
        body: { country: 'DEU', flow: 'user', tier: 'tier1' },
      });
      const [event] = (await json(await h.call('GET', '/v1/events', { key: h.tenant.sandboxKey })))['data'];
      for (const key of [h.other.sandboxKey, h.tenant.productionKey]) {
        assert.equal((await h.call('GET', `/v1/webhooks/${mine.id}`, { key })).status, 404);
        assert.equal((await h.call('DELETE', `/v1/webhooks/${mine.id}`, { key })).status, 404);
        assert.equal((await h.call('POST', `/v1/webhooks/${mine.id}/test`, { key })).status, 404);
        assert.equal((await h.call('GET', `/v1/events/${event.event_id}`, { key })).status, 404);
        const listed = await json(await h.call('GET', '/v1/webhooks?limit=100', { key }));
        assert.ok(!listed['data'].some((w: Record<string, string>) => w['webhook_id'] === mine.id));
      }
    });

    it('never sends another tenant’s or environment’s events to an endpoint', async () => {
      const other = await createWebhook(h, { url: 'https://b.example/other' }, h.other.sandboxKey);
      await h.call('POST', '/v1/sessions', {
        key: h.tenant.sandboxKey,
        body: { country: 'DEU', flow: 'user', tier: 'tier1' },
      });
      const { createWebhookWorker } = await import('../../../server/workers/webhook-delivery-worker.ts');
      const sent: string[] = [];
      await createWebhookWorker({
        ...h.deps,
        webhookSender: {
          send: async (request) => {
            sent.push(request.url);
            return { kind: 'response', status: 200, retryAfter: null };
          },
        },
      }).runOnce();
      assert.ok(!sent.includes('https://b.example/other'));
      const log = await json(
        await h.call('GET', `/v1/webhooks/${other.id}/deliveries`, { key: h.other.sandboxKey }),
      );
      assert.equal(log['data'].length, 0);
    });
  });
}
