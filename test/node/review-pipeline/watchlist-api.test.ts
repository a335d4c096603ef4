import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  completeAndSubmit,
  createSession,
  EvidenceBook,
  goodEvidence,
  loginAs,
  result,
  worker,
} from './pipeline-support.ts';

for (const engine of testEngines()) {
  describe(`tenant watchlist (${engine})`, () => {
    let h: TestHarness;
    const book = new EvidenceBook();
    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
    });
    after(() => h.close());

    async function tier3Outcome(key: string, person: Parameters<typeof goodEvidence>[1]) {
      const session = await createSession(h, key, { tier: 'tier3' });
      const evidence = goodEvidence(h, person);
      evidence.proof_of_address = {
        document_type: 'utility_bill',
        images: [{ side: 'front', quality: { ok: true, issues: [] } }],
      };
      book.set(session['session_id'], evidence);
      await completeAndSubmit(h, key, session['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      return { outcome, watchlist: outcome['checks'].find((check: any) => check.type === 'watchlist') };
    }

    it('shows the fictional sample list in the sandbox and no list in production until one is uploaded', async () => {
      const sandbox = await json(await h.call('GET', '/v1/watchlist', { key: h.tenant.sandboxKey }));
      assert.equal(sandbox['source'], 'sample');
      assert.ok(sandbox['entry_count'] > 0);
      const production = await json(await h.call('GET', '/v1/watchlist', { key: h.tenant.productionKey }));
      assert.equal(production['source'], 'none');
      assert.equal(production['entry_count'], 0);
    });

    it('cannot screen in production without a list: the check is inconclusive, never passed', async () => {
      const { watchlist } = await tier3Outcome(h.tenant.productionKey, { first_name: 'Jane' });
      assert.equal(watchlist.status, 'inconclusive');
      assert.equal(watchlist.details.cause, 'lookup_not_run');
    });

    it("screens against the tenant's uploaded list with fuzzy matching", async () => {
      const key = h.tenant.productionKey;
      const put = await h.call('PUT', '/v1/watchlist', {
        key,
        body: {
          entries: [
            {
              name: 'MADEUPSON, Beatrix',
              aliases: ['Bea Madeupson'],
              date_of_birth: '1985',
              list: 'internal-blocklist',
            },
          ],
        },
      });
      assert.equal(put.status, 200, await put.clone().text());
      const body = await json(put);
      assert.equal(body['source'], 'tenant');
      assert.equal(body['entry_count'], 1);

      const hit = await tier3Outcome(key, {
        first_name: 'Béatrix',
        last_name: 'Madeupsen',
        date_of_birth: '1985-02-03',
      });
      assert.equal(hit.outcome['decision'], 'review_required');
      assert.equal(hit.watchlist.status, 'failed');
      assert.deepEqual(hit.watchlist.reason_codes, ['watchlist_hit']);
      assert.ok(!JSON.stringify(hit.outcome).includes('MADEUPSON'), 'the listed name is never echoed');

      const clear = await tier3Outcome(key, { first_name: 'Jane', last_name: 'Doe' });
      assert.equal(clear.watchlist.status, 'passed');
      const other = await json(await h.call('GET', '/v1/watchlist', { key: h.other.productionKey }));
      assert.equal(other['source'], 'none', 'lists are per tenant');
    });

    it('validates uploads and needs the watchlist capabilities', async () => {
      const key = h.tenant.sandboxKey;
      const bad = [
        { entries: [{ name: 'A' }] },
        { entries: [{ name: 'Valid Name', date_of_birth: '1985-13-01' }] },
        { entries: [{ name: 'Valid Name', nickname: 'x' }] },
        { list: [] },
      ];
      for (const body of bad) {
        const response = await h.call('PUT', '/v1/watchlist', { key, body });
        assert.equal(response.status, 400, JSON.stringify(body));
      }
      const viewer = await loginAs(h, 'viewer');
      const read = await h.call('GET', '/v1/watchlist', { token: viewer });
      assert.equal(read.status, 403);
      const reviewer = await loginAs(h, 'reviewer');
      assert.equal((await h.call('GET', '/v1/watchlist', { token: reviewer })).status, 200);
      const write = await h.call('PUT', '/v1/watchlist', { token: reviewer, body: { entries: [] } });
      assert.equal(write.status, 403);
    });
  });
}
