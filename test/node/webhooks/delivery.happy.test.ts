import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { nodeWebhookSender } from '../../../server/runtime/node/node-webhook-sender.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { driveSession } from './support/drive-session.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';
import { createSession, createWebhook, deliveriesOf, workerFor } from './support/webhook-harness.ts';

const SEED_EVENTS = [
  'session.approved',
  'session.rejected',
  'session.review_required',
  'session.expired',
  'identity.created',
];

/** The receiver's own check, written with node:crypto only (not our signing code). */
function seedSignatureValid(secret: string, body: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = createHmac('sha256', secret).update(body, 'utf8').digest();
  const given = Buffer.from(header, 'hex');
  return /^[0-9a-f]{64}$/.test(header) && timingSafeEqual(expected, given);
}

for (const engine of testEngines()) {
  describe(`webhook delivery to a real receiver (${engine})`, () => {
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

    it('delivers each of the seed’s five events with its payload fields, signed both ways', async () => {
      const webhook = await createWebhook(h, { url: `${receiver.url}/hooks`, events: SEED_EVENTS });
      assert.match(webhook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      const worker = workerFor(h, { sender: nodeWebhookSender() });

      const approved = await createSession(h);
      const rejected = await createSession(h);
      const review = await createSession(h);
      const expired = await createSession(h);
      await driveSession(h, approved, 'approved', { identityId: 'idn_test0000000000000001' });
      await driveSession(h, rejected, 'rejected');
      await driveSession(h, review, 'review_required');
      await driveSession(h, expired, 'expired');
      await worker.runOnce();

      const requests = await receiver.waitFor(5);
      assert.equal(
        requests.length,
        5,
        'only subscribed kinds arrive: no session.created/collecting/processing',
      );
      const verifier = new Webhook(webhook.secret);
      const byKind = new Map<string, Record<string, any>>();
      for (const request of requests) {
        assert.equal(request.path, '/hooks');
        assert.equal(request.headers['content-type'], 'application/json');
        assert.ok(
          seedSignatureValid(webhook.secret, request.body, request.headers['x-service-signature'] as string),
          'x-service-signature is the hex HMAC-SHA256 of the raw body keyed with the whole secret',
        );
        assert.equal(request.headers['x-service-signature-previous'], undefined, 'no rotation, no previous');
        const standardHeaders = {
          'webhook-id': request.headers['webhook-id'] as string,
          'webhook-timestamp': request.headers['webhook-timestamp'] as string,
          'webhook-signature': request.headers['webhook-signature'] as string,
        };
        const verified = verifier.verify(request.body, standardHeaders) as Record<string, any>;
        assert.equal(standardHeaders['webhook-id'], verified['event_id'], 'webhook-id is the event id');
        byKind.set(verified['event'], verified);
      }
      assert.deepEqual([...byKind.keys()].sort(), [...SEED_EVENTS].sort());

      const approvedEvent = byKind.get('session.approved') as Record<string, any>;
      assert.equal(approvedEvent['session_id'], approved);
      assert.equal(approvedEvent['identity_id'], 'idn_test0000000000000001');
      assert.equal(approvedEvent['decision'], 'approved');
      assert.equal(approvedEvent['status'], 'approved');
      assert.equal(approvedEvent['environment'], 'sandbox');
      assert.match(approvedEvent['event_id'], /^evt_/);
      assert.match(approvedEvent['created_at'], /Z$/);
      assert.equal((byKind.get('session.rejected') as Record<string, any>)['decision'], 'rejected');
      assert.equal(
        (byKind.get('session.review_required') as Record<string, any>)['decision'],
        'review_required',
      );
      const expiredEvent = byKind.get('session.expired') as Record<string, any>;
      assert.equal(expiredEvent['session_id'], expired);
      assert.equal(expiredEvent['decision'], null);
      const identity = byKind.get('identity.created') as Record<string, any>;
      assert.equal(identity['identity_id'], 'idn_test0000000000000001');
      assert.equal(identity['session_id'], approved);

      const log = await deliveriesOf(h, webhook.id);
      assert.equal(log.length, 5);
      for (const delivery of log) {
        assert.equal(delivery['status'], 'succeeded');
        assert.equal(delivery['attempt_count'], 1);
        assert.equal(delivery['attempts'][0].status, 'succeeded');
        assert.equal(delivery['attempts'][0].response_status, 200);
        assert.equal(typeof delivery['attempts'][0].duration_ms, 'number');
        assert.equal(delivery['next_attempt_at'], null);
      }

      await worker.runOnce();
      assert.equal(receiver.requests.length, 5, 'a delivered event is not sent again');
    });

    it('the event feed lists what happened, with the payload deliveries carry', async () => {
      const listed = await json(
        await h.call('GET', '/v1/events?type=session.approved', { key: h.tenant.sandboxKey }),
      );
      assert.equal(listed['object'], 'list');
      assert.equal(listed['data'].length, 1);
      const event = listed['data'][0];
      assert.equal(event['object'], 'event');
      assert.equal(event['type'], 'session.approved');
      assert.equal(event['payload'].decision, 'approved');
      const got = await json(
        await h.call('GET', `/v1/events/${event['event_id']}`, { key: h.tenant.sandboxKey }),
      );
      assert.deepEqual(got, event);
      const all = await json(await h.call('GET', '/v1/events?limit=100', { key: h.tenant.sandboxKey }));
      assert.equal(all['data'].length, 15, 'every state change of the four sessions is an event');
    });
  });
}
