import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { createWebhook } from './support/webhook-harness.ts';

for (const engine of testEngines()) {
  describe(`webhook management errors (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    for (const [body, code, param] of [
      [{ events: ['*'] }, 'missing_parameter', 'url'],
      [{ url: 'https://a.example/h' }, 'missing_parameter', 'events'],
      [{ url: 'ftp://a.example/h', events: ['*'] }, 'invalid_parameter', 'url'],
      [{ url: 'not a url', events: ['*'] }, 'invalid_parameter', 'url'],
      [{ url: 'https://a.example/h', events: [] }, 'invalid_parameter', 'events'],
      [{ url: 'https://a.example/h', events: ['session.aproved'] }, 'invalid_parameter', 'events.0'],
      [{ url: 'https://a.example/h', events: ['*', 'session.approved'] }, 'invalid_parameter', 'events'],
      [{ url: 'https://a.example/h', events: ['*'], secret: 'mine' }, 'unknown_parameter', 'secret'],
    ] as const) {
      it(`answers ${code} on ${param} for ${JSON.stringify(body)}`, async () => {
        const response = await h.call('POST', '/v1/webhooks', { key: h.tenant.sandboxKey, body });
        const problem = await json(response);
        assert.equal(response.status, 400);
        const errors = problem['errors'] ?? [{ code: problem['code'], param: problem['param'] }];
        assert.ok(
          errors.some((error: Record<string, string>) => error['code'] === code && error['param'] === param),
          JSON.stringify(problem),
        );
      });
    }

    it('takes an optional body that arrives empty as a real socket delivers it, and 415s a non-JSON one', async () => {
      const webhook = await createWebhook(h, { url: 'https://a.example/h' });
      // node:http hands Hono an empty stream with content-length 0, not the null body app.request makes.
      const emptyStream = new Request(`http://api.idv.test/v1/webhooks/${webhook.id}/rotate-secret`, {
        method: 'POST',
        headers: { 'x-api-key': h.tenant.sandboxKey, 'content-length': '0' },
        body: new ReadableStream({ start: (controller) => controller.close() }),
        duplex: 'half',
      } as RequestInit);
      const rotated = await h.app.fetch(emptyStream);
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const text = await h.call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
        key: h.tenant.sandboxKey,
        rawBody: 'rotate please',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(text.status, 415);
      assert.equal((await json(text))['code'], 'unsupported_media_type');
    });

    it('answers 404 for an unknown webhook, delivery or event', async () => {
      const webhook = await createWebhook(h, { url: 'https://a.example/h' });
      for (const [method, path] of [
        ['GET', '/v1/webhooks/wh_nope'],
        ['PATCH', '/v1/webhooks/wh_nope'],
        ['DELETE', '/v1/webhooks/wh_nope'],
        ['POST', '/v1/webhooks/wh_nope/test'],
        ['POST', '/v1/webhooks/wh_nope/rotate-secret'],
        ['GET', '/v1/webhooks/wh_nope/deliveries'],
        ['POST', `/v1/webhooks/${webhook.id}/deliveries/dlv_nope/retry`],
        ['GET', '/v1/events/evt_nope'],
      ] as const) {
        const response = await h.call(method, path, {
          key: h.tenant.sandboxKey,
          ...(method === 'PATCH' ? { body: { description: 'x' } } : {}),
        });
        assert.equal(response.status, 404, `${method} ${path}`);
        assert.equal((await json(response))['code'], 'resource_missing');
      }
    });

    it('refuses a manual retry on a disabled endpoint with 409 webhook_disabled', async () => {
      const webhook = await createWebhook(h, { url: 'https://a.example/d' });
      await h.call('PATCH', `/v1/webhooks/${webhook.id}`, {
        key: h.tenant.sandboxKey,
        body: { status: 'disabled' },
      });
      const response = await h.call('POST', `/v1/webhooks/${webhook.id}/deliveries/dlv_x/retry`, {
        key: h.tenant.sandboxKey,
      });
      assert.equal(response.status, 409);
      assert.equal((await json(response))['code'], 'webhook_disabled');
    });

    it('hides events older than 30 days', async () => {
      await h.call('POST', '/v1/sessions', {
        key: h.tenant.sandboxKey,
        body: { country: 'DEU', flow: 'user', tier: 'tier1' },
      });
      const [event] = (await json(await h.call('GET', '/v1/events', { key: h.tenant.sandboxKey })))['data'];
      h.clock.advance(30 * 24 * 3600 * 1000 + 1);
      assert.equal(
        (await h.call('GET', `/v1/events/${event.event_id}`, { key: h.tenant.sandboxKey })).status,
        404,
      );
      const listed = await json(await h.call('GET', '/v1/events', { key: h.tenant.sandboxKey }));
      assert.equal(listed['data'].length, 0);
    });

    it('rejects both cursors at once', async () => {
      const response = await h.call('GET', '/v1/webhooks?starting_after=wh_a&ending_before=wh_b', {
        key: h.tenant.sandboxKey,
      });
      assert.equal(response.status, 400);
      assert.equal((await json(response))['code'], 'invalid_cursor');
    });
  });
}
