import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';
import { createWebhook, deliveriesOf } from './support/webhook-harness.ts';

for (const engine of testEngines()) {
  describe(`webhook management (${engine})`, () => {
    let h: TestHarness;
    let receiver: Receiver;
    before(async () => {
      h = await createHarness(engine);
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await h.close();
    });
    const key = () => h.tenant.sandboxKey;

    it('creates, reads, lists, changes and deletes an endpoint; the secret appears only at creation', async () => {
      const created = await h.call('POST', '/v1/webhooks', {
        key: key(),
        body: {
          url: `${receiver.url}/a`,
          events: ['session.approved', 'identity.created'],
          description: 'main',
        },
      });
      assert.equal(created.status, 201);
      const body = await json(created);
      assert.match(body['webhook_id'], /^wh_[0-9A-Za-z]{20,}$/);
      assert.equal(body['object'], 'webhook');
      assert.equal(body['status'], 'active');
      assert.equal(body['environment'], 'sandbox');
      assert.equal(body['description'], 'main');
      assert.deepEqual(body['events'], ['session.approved', 'identity.created']);
      assert.equal(Buffer.from(body['secret'].slice(6), 'base64').length, 32);

      const got = await json(await h.call('GET', `/v1/webhooks/${body['webhook_id']}`, { key: key() }));
      const { secret: _secret, ...withoutSecret } = body;
      assert.deepEqual(got, withoutSecret);

      const stored = await h.deps.db.query<{ secret_enc: string }>(
        'select secret_enc from webhooks where id = $1',
        [body['webhook_id']],
      );
      assert.ok(!stored[0]?.secret_enc.includes(body['secret'].slice(6)), 'the secret is stored encrypted');

      const patched = await json(
        await h.call('PATCH', `/v1/webhooks/${body['webhook_id']}`, {
          key: key(),
          body: { events: ['*'], status: 'disabled', description: null },
        }),
      );
      assert.deepEqual(patched['events'], ['*']);
      assert.equal(patched['status'], 'disabled');
      assert.equal(patched['description'], null);

      h.clock.advance(1000);
      const second = await createWebhook(h, { url: `${receiver.url}/b` });
      const listed = await json(await h.call('GET', '/v1/webhooks?limit=1', { key: key() }));
      assert.equal(listed['data'][0].webhook_id, second.id, 'newest first');
      assert.equal(listed['has_more'], true);
      const page2 = await json(
        await h.call('GET', `/v1/webhooks?limit=1&starting_after=${second.id}`, { key: key() }),
      );
      assert.equal(page2['data'][0].webhook_id, body['webhook_id']);
      assert.equal(page2['data'][0].secret, undefined);

      const deleted = await h.call('DELETE', `/v1/webhooks/${second.id}`, { key: key() });
      assert.deepEqual(await json(deleted), { object: 'webhook', webhook_id: second.id, deleted: true });
      assert.equal((await h.call('GET', `/v1/webhooks/${second.id}`, { key: key() })).status, 404);
    });

    it('sends a webhook.test and returns only the receiver’s status code, logged as a delivery', async () => {
      receiver.respond((_request, _index, response) => response.writeHead(418).end('secret body'));
      const webhook = await createWebhook(h, { url: `${receiver.url}/test`, events: ['session.approved'] });
      const before = receiver.requests.length;
      const response = await h.call('POST', `/v1/webhooks/${webhook.id}/test`, { key: key() });
      const result = await json(response);
      assert.equal(response.status, 200);
      assert.equal(result['delivered'], false);
      assert.equal(result['status_class'], '4xx');
      assert.equal(result['status_code'], undefined, 'no exact status: the test call is no port scanner');
      assert.ok(!JSON.stringify(result).includes('secret body'), 'never the receiver’s body');
      const sent = JSON.parse(receiver.requests[before]?.body ?? '{}');
      assert.equal(sent.event, 'webhook.test');
      const log = await deliveriesOf(h, webhook.id);
      assert.equal(log[0]?.['event_type'], 'webhook.test');
      assert.equal(log[0]?.['status'], 'failed', 'a test is not retried');
      assert.equal(log[0]?.['attempts'][0].response_status, 418);
      receiver.respond((_request, _index, response) => response.writeHead(200).end());
    });
  });
}
