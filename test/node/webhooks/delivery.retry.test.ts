import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { nodeWebhookSender } from '../../../server/runtime/node/node-webhook-sender.ts';
import { fetchWebhookSender, type WebhookSender } from '../../../server/features/webhooks/webhook-sender.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';
import { createSession, createWebhook, deliveriesOf, workerFor } from './support/webhook-harness.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

for (const engine of testEngines()) {
  describe(`webhook retries, 410 and redirects (${engine})`, () => {
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
    beforeEach(async () => {
      receiver.requests.length = 0;
      receiver.respond((_request, _index, response) => response.writeHead(200).end());
      await h.deps.db.query(`update webhooks set status = 'disabled'`);
    });

    it('a receiver failing the first 4 attempts gets the event on attempt 5, at the scheduled offsets', async () => {
      const key = h.tenant.productionKey;
      const webhook = await createWebhook(
        h,
        { url: `${receiver.url}/flaky`, events: ['session.created'] },
        key,
      );
      const worker = workerFor(h, { sender: nodeWebhookSender() });
      receiver.respond((_request, index, response) => response.writeHead(index < 4 ? 500 : 204).end());
      const start = h.clock.now().getTime();
      await createSession(h, key);

      const offsets = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR];
      for (const [index, offset] of offsets.entries()) {
        if (index > 0) {
          h.clock.advance(offset - 1);
          await worker.runOnce();
          assert.equal(receiver.requests.length, index, `attempt ${index + 1} waits its full ${offset} ms`);
          h.clock.advance(1);
        }
        await worker.runOnce();
        assert.equal(receiver.requests.length, index + 1, `attempt ${index + 1} goes at its offset`);
      }
      const [delivery] = await deliveriesOf(h, webhook.id, key);
      assert.equal(delivery?.['status'], 'succeeded');
      assert.deepEqual(
        delivery?.['attempts'].map((a: Record<string, any>) => [
          a.attempt,
          a.status,
          a.response_status,
          a.error_class,
        ]),
        [
          [1, 'failed', 500, 'http_error'],
          [2, 'failed', 500, 'http_error'],
          [3, 'failed', 500, 'http_error'],
          [4, 'failed', 500, 'http_error'],
          [5, 'succeeded', 204, null],
        ],
      );
      let elapsed = 0;
      const started = delivery?.['attempts'].map(
        (a: Record<string, any>) => Date.parse(a.started_at) - start,
      );
      for (const [index, offset] of offsets.entries()) {
        elapsed += offset;
        assert.equal(started[index], elapsed, `attempt ${index + 1} started ${elapsed} ms after the event`);
      }
      const ids = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
      assert.equal(ids.size, 1, 'webhook-id stays the same across retries');
    });

    it('gives up after the 2 h retry in the sandbox and shows the delivery as failed', async () => {
      const sends: string[] = [];
      const failing: WebhookSender = {
        send: async (request) => {
          sends.push(request.url);
          return { kind: 'response', status: 503, retryAfter: null };
        },
      };
      const webhook = await createWebhook(h, {
        url: 'https://receiver.example/hook',
        events: ['session.created'],
      });
      const worker = workerFor(h, { sender: failing });
      await createSession(h);
      for (let round = 0; round < 12; round++) {
        await worker.runOnce();
        h.clock.advance(25 * HOUR);
      }
      assert.equal(sends.length, 5, 'immediately, 5 s, 5 min, 30 min, 2 h');
      const [delivery] = await deliveriesOf(h, webhook.id);
      assert.equal(delivery?.['status'], 'failed');
      assert.equal(delivery?.['next_attempt_at'], null);
      assert.equal(delivery?.['attempts'].length, 5);
    });

    it('keeps production deliveries going for ten attempts over the whole schedule', async () => {
      let sends = 0;
      const failing: WebhookSender = {
        send: async () => {
          sends += 1;
          return { kind: 'error', errorClass: 'connection_refused' };
        },
      };
      const key = h.tenant.productionKey;
      const webhook = await createWebhook(
        h,
        { url: 'https://receiver.example/p', events: ['session.created'] },
        key,
      );
      const worker = workerFor(h, { sender: failing });
      await createSession(h, key);
      for (let round = 0; round < 14; round++) {
        await worker.runOnce();
        h.clock.advance(25 * HOUR);
      }
      assert.equal(sends, 10);
      const [delivery] = await deliveriesOf(h, webhook.id, key);
      assert.equal(delivery?.['status'], 'failed');
      assert.equal(delivery?.['last_error_class'], 'connection_refused');
    });

    it('honours retry-after on 429 by not coming back sooner than asked', async () => {
      receiver.respond((_request, index, response) =>
        index === 0 ? response.writeHead(429, { 'retry-after': '120' }).end() : response.writeHead(200).end(),
      );
      await createWebhook(h, { url: `${receiver.url}/busy`, events: ['session.created'] });
      const worker = workerFor(h, { sender: nodeWebhookSender() });
      await createSession(h);
      await worker.runOnce();
      h.clock.advance(119 * SECOND);
      await worker.runOnce();
      assert.equal(receiver.requests.length, 1, 'the 5 s step is stretched to the 120 s asked for');
      h.clock.advance(SECOND);
      await worker.runOnce();
      assert.equal(receiver.requests.length, 2);
    });

    it('disables the endpoint on 410 and stops sending it events until it is re-enabled', async () => {
      receiver.respond((_request, _index, response) => response.writeHead(410).end());
      const webhook = await createWebhook(h, { url: `${receiver.url}/gone`, events: ['session.created'] });
      const worker = workerFor(h, { sender: nodeWebhookSender() });
      await createSession(h);
      await worker.runOnce();
      const got = await json(await h.call('GET', `/v1/webhooks/${webhook.id}`, { key: h.tenant.sandboxKey }));
      assert.equal(got['status'], 'disabled');
      assert.equal(got['disabled_reason'], 'endpoint_gone');
      const [delivery] = await deliveriesOf(h, webhook.id);
      assert.equal(delivery?.['status'], 'failed', 'a 410 is not retried');
      assert.equal(delivery?.['attempts'][0].error_class, 'endpoint_gone');

      await createSession(h);
      h.clock.advance(HOUR);
      await worker.runOnce();
      assert.equal(receiver.requests.length, 1, 'a disabled endpoint gets nothing');

      receiver.respond((_request, _index, response) => response.writeHead(200).end());
      const enabled = await h.call('PATCH', `/v1/webhooks/${webhook.id}`, {
        key: h.tenant.sandboxKey,
        body: { status: 'active' },
      });
      assert.equal((await json(enabled))['disabled_reason'], null);
      const retried = await h.call(
        'POST',
        `/v1/webhooks/${webhook.id}/deliveries/${delivery?.['delivery_id']}/retry`,
        {
          key: h.tenant.sandboxKey,
        },
      );
      assert.equal(retried.status, 200);
      assert.equal((await json(retried))['status'], 'pending');
      await worker.runOnce();
      assert.equal(receiver.requests.length, 2, 'the manual retry went out');
      const [after] = await deliveriesOf(h, webhook.id);
      assert.equal(after?.['status'], 'succeeded');
      assert.equal(after?.['attempts'].length, 2);
    });

    for (const [name, sender] of [
      ['Node sender', nodeWebhookSender()],
      ['fetch sender', fetchWebhookSender()],
    ] as const) {
      it(`does not follow a 302 and counts it as a failure (${name})`, async () => {
        receiver.respond((request, _index, response) =>
          request.path === '/moved'
            ? response.writeHead(302, { location: `${receiver.url}/elsewhere` }).end()
            : response.writeHead(200).end(),
        );
        const webhook = await createWebhook(h, { url: `${receiver.url}/moved`, events: ['session.created'] });
        const worker = workerFor(h, { sender });
        await createSession(h);
        await worker.runOnce();
        assert.deepEqual(
          receiver.requests.map((request) => request.path),
          ['/moved'],
          'the Location was never requested',
        );
        const [delivery] = await deliveriesOf(h, webhook.id);
        assert.equal(delivery?.['status'], 'pending', 'a redirect is retried like any failure');
        assert.equal(delivery?.['attempts'][0].response_status, 302);
        assert.equal(delivery?.['attempts'][0].error_class, 'redirect');
      });
    }
  });
}
