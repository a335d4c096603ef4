import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createExpirySweeper } from '../../../server/workers/expiry-sweeper.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { completeAndSubmit, createSession, eventTypes, simulate } from './pipeline-support.ts';

async function statusOf(h: TestHarness, id: string): Promise<string> {
  // Straight from storage: a read through the API would apply expiry itself.
  const rows = await h.deps.db.query<{ status: string }>('select status from sessions where id = $1', [id]);
  return rows[0]?.status ?? 'missing';
}

for (const engine of testEngines()) {
  describe(`expiry sweeper (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('expires overdue created and collecting sessions in the background, with their events', async () => {
      const key = h.tenant.sandboxKey;
      const created = await createSession(h, key, { expires_in: 900 });
      const collecting = await createSession(h, key, { expires_in: 900 });
      await simulate(h, key, collecting['session_id'], 'start');
      const processing = await createSession(h, key, { expires_in: 900 });
      await completeAndSubmit(h, key, processing['session_id']);
      const later = await createSession(h, key, { expires_in: 3600 });

      const sweeper = createExpirySweeper(h.deps, { batchSize: 1 });
      assert.equal(await sweeper.runOnce(), 0, 'nothing is overdue yet');
      h.clock.advance(900_000);
      assert.equal(await sweeper.runOnce(), 2, 'batches of one still reach every overdue session');
      assert.equal(await statusOf(h, created['session_id']), 'expired');
      assert.equal(await statusOf(h, collecting['session_id']), 'expired');
      assert.equal(await statusOf(h, processing['session_id']), 'processing', 'processing never expires');
      assert.equal(await statusOf(h, later['session_id']), 'created');
      for (const id of [created['session_id'], collecting['session_id']]) {
        const types = await eventTypes(h, id);
        assert.equal(types.filter((type) => type === 'session.expired').length, 1);
      }
      assert.equal(await sweeper.runOnce(), 0, 'a second sweep finds nothing to do');
    });

    it('runs in the background until stopped', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key, { expires_in: 900 });
      h.clock.advance(900_000);
      const sweeper = createExpirySweeper(h.deps, { intervalMs: 10 });
      sweeper.start();
      for (let i = 0; i < 100 && (await statusOf(h, session['session_id'])) !== 'expired'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await sweeper.stop();
      assert.equal(await statusOf(h, session['session_id']), 'expired');
    });
  });
}
