import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { nodeWebhookSender } from '../../../server/runtime/node/node-webhook-sender.ts';
import { verifyWebhook, WebhookVerificationError } from '../../../server/client/src/index.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from './support/receiver.ts';
import { createSession, createWebhook, workerFor } from './support/webhook-harness.ts';

const HOUR = 3600 * 1000;

function standardHeaders(request: ReceivedRequest): Record<string, string> {
  return {
    'webhook-id': request.headers['webhook-id'] as string,
    'webhook-timestamp': request.headers['webhook-timestamp'] as string,
    'webhook-signature': request.headers['webhook-signature'] as string,
  };
}

const hexHmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

for (const engine of testEngines()) {
  describe(`secret rotation (${engine})`, () => {
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

    it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
      const webhook = await createWebhook(h, { url: `${receiver.url}/r`, events: ['session.created'] });
      const worker = workerFor(h, { sender: nodeWebhookSender() });
      const rotated = await h.call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
        key: h.tenant.sandboxKey,
      });
      assert.equal(rotated.status, 200);
      const rotatedBody = await json(rotated);
      const newSecret: string = rotatedBody['secret'];
      assert.notEqual(newSecret, webhook.secret);
      assert.equal(
        Date.parse(rotatedBody['previous_secret_expires_at']) - h.clock.now().getTime(),
        24 * HOUR,
        'the overlap is 24 h',
      );

      // During the overlap.
      await createSession(h);
      await worker.runOnce();
      const during = receiver.requests[0] as ReceivedRequest;
      assert.equal(during.headers['x-service-signature'], hexHmac(newSecret, during.body));
      assert.equal(during.headers['x-service-signature-previous'], hexHmac(webhook.secret, during.body));
      assert.equal((during.headers['webhook-signature'] as string).split(' ').length, 2);
      assert.doesNotThrow(() => new Webhook(newSecret).verify(during.body, standardHeaders(during)));
      assert.doesNotThrow(() => new Webhook(webhook.secret).verify(during.body, standardHeaders(during)));
      await verifyWebhook(during.body, standardHeaders(during), webhook.secret, { now: h.clock.now() });

      // Just before the overlap ends: still both.
      h.clock.advance(24 * HOUR - 1000);
      await createSession(h);
      await worker.runOnce();
      const last = receiver.requests[1] as ReceivedRequest;
      assert.equal((last.headers['webhook-signature'] as string).split(' ').length, 2);
      assert.equal(last.headers['x-service-signature-previous'], hexHmac(webhook.secret, last.body));

      // After it: only the new secret signs.
      h.clock.advance(1001);
      await createSession(h);
      await worker.runOnce();
      const later = receiver.requests[2] as ReceivedRequest;
      assert.equal(later.headers['x-service-signature'], hexHmac(newSecret, later.body));
      assert.equal(later.headers['x-service-signature-previous'], undefined);
      // standardwebhooks compares the timestamp with the real clock (ours is 24 h ahead), so check the
      // Standard Webhooks signature with node:crypto, independently of our code.
      const headers = standardHeaders(later);
      const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${later.body}`;
      const v1 = (secret: string) =>
        `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
          .update(signed)
          .digest('base64')}`;
      assert.deepEqual(headers['webhook-signature'], v1(newSecret));
      assert.notEqual(headers['webhook-signature'], v1(webhook.secret));
      await verifyWebhook(later.body, headers, newSecret, { now: h.clock.now() });
      await assert.rejects(
        verifyWebhook(later.body, headers, webhook.secret, { now: h.clock.now() }),
        (error: unknown) => error instanceof WebhookVerificationError && error.code === 'signature_mismatch',
      );
      const got = await json(await h.call('GET', `/v1/webhooks/${webhook.id}`, { key: h.tenant.sandboxKey }));
      assert.equal(got['previous_secret_expires_at'], null);
      assert.equal(got['secret'], undefined, 'the secret is never readable again');
    });

    it('ends the old secret at once when asked (a leaked secret)', async () => {
      const webhook = await createWebhook(h, { url: `${receiver.url}/leak`, events: ['session.created'] });
      const rotated = await json(
        await h.call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
          key: h.tenant.sandboxKey,
          body: { previous_secret_expires_in: 0 },
        }),
      );
      assert.equal(rotated['previous_secret_expires_at'], null);
      await h.deps.db.query(`update webhooks set status = 'disabled' where id <> $1`, [webhook.id]);
      receiver.requests.length = 0;
      await createSession(h);
      await workerFor(h, { sender: nodeWebhookSender() }).runOnce();
      const request = receiver.requests[0] as ReceivedRequest;
      assert.equal(request.headers['x-service-signature'], hexHmac(rotated['secret'], request.body));
      assert.equal(request.headers['x-service-signature-previous'], undefined);
    });
  });
}
