import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nodeWebhookSender } from '../../../server/runtime/node/node-webhook-sender.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';
import { createSession, createWebhook, deliveriesOf, workerFor } from './support/webhook-harness.ts';

/** Whether the worker still has to fan out the session's `session.created` event. */
async function awaitingFanOut(h: TestHarness, sessionId: string): Promise<boolean> {
  const rows = await h.deps.db.query<{ fanned_out_at: Date | null }>(
    `select fanned_out_at from events where session_id = $1 and type = 'session.created'`,
    [sessionId],
  );
  assert.equal(rows.length, 1, 'the create wrote its event');
  return rows[0]!.fanned_out_at === null;
}

// Issue #13: a create whose tenant has no endpoint in its environment writes its event already fanned
// out, so the worker does not wake for it; with an endpoint, fan-out and delivery are unchanged.
for (const engine of testEngines()) {
  describe(`session.created fan-out without subscribers (${engine})`, () => {
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

    it('marks the event done when the tenant has no endpoint, and the worker finds nothing', async () => {
      const sessionId = await createSession(h, h.other.sandboxKey);
      assert.equal(await awaitingFanOut(h, sessionId), false);
      assert.deepEqual(await workerFor(h).runOnce(), { fannedOut: 0, attempted: 0 });
    });

    it('leaves the event to the worker when an endpoint exists, which then delivers it', async () => {
      const webhook = await createWebhook(h, { url: `${receiver.url}/hooks`, events: ['*'] });
      const sessionId = await createSession(h, h.tenant.sandboxKey);
      assert.equal(await awaitingFanOut(h, sessionId), true);
      const round = await workerFor(h, { sender: nodeWebhookSender() }).runOnce();
      assert.equal(round.fannedOut, 1);
      assert.equal((await receiver.waitFor(1)).length, 1, 'the receiver got the event');
      assert.equal((await deliveriesOf(h, webhook.id)).length, 1);
      assert.equal(await awaitingFanOut(h, sessionId), false);
    });

    it('scopes the check by environment: a sandbox endpoint does not hold production events back', async () => {
      const sessionId = await createSession(h, h.tenant.productionKey);
      assert.equal(await awaitingFanOut(h, sessionId), false);
    });
  });
}
