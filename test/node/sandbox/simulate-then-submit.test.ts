import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSession, result, simulate, worker } from '../review-pipeline/pipeline-support.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

// The path the README shows a tenant who has no browser at hand: simulate the end-user's steps, submit
// from the tenant's server, read the result. Runs with the real evidence collector.
for (const engine of testEngines()) {
  describe(`sandbox: simulated steps, then the tenant's submit (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('approves, with consent recorded and every evidence check honestly inconclusive', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      await simulate(h, key, session['session_id'], 'complete_steps');
      const submitted = await h.call('POST', `/v1/sessions/${session['session_id']}/submit`, { key });
      assert.equal(submitted.status, 200);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['decision'], 'approved', JSON.stringify(outcome['checks']));
      const status = (type: string) => outcome['checks'].find((check: any) => check.type === type)?.status;
      assert.equal(status('consent'), 'passed');
      assert.equal(
        status('document_quality'),
        'inconclusive',
        'no image was uploaded: nothing may pretend it was checked',
      );
      assert.equal(status('liveness'), 'inconclusive');
    });
  });
}
