import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findReviewJobsOfSession } from '../../../server/store/jobs.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  bornYearsAgo,
  completeAndSubmit,
  createSession,
  dayFrom,
  EvidenceBook,
  eventTypes,
  goodEvidence,
  result,
  worker,
} from './pipeline-support.ts';

for (const engine of testEngines()) {
  describe(`automated review pipeline, outcomes (${engine})`, () => {
    let h: TestHarness;
    const book = new EvidenceBook();
    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
    });
    after(() => h.close());

    it('approves a complete tier2 sandbox session end to end and vaults the identity', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key, { external_user_reference: 'user-1' });
      book.set(session['session_id'], goodEvidence(h));
      const submitted = await completeAndSubmit(h, key, session['session_id']);
      assert.equal(submitted['status'], 'processing');
      const jobs = await findReviewJobsOfSession(h.deps.db, session['session_id']);
      assert.equal(jobs.length, 1, 'submit queued exactly one review job');
      assert.equal((await result(h, key, session['session_id']))['decision'], null);

      const round = await worker(h).runOnce();
      assert.equal(round.decided, 1);

      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['object'], 'session_result');
      assert.equal(outcome['status'], 'approved');
      assert.equal(outcome['decision'], 'approved');
      assert.equal(outcome['decided_by'], 'automated');
      assert.equal(outcome['retry_allowed'], false);
      assert.deepEqual(outcome['reasons'], []);
      assert.match(outcome['decided_at'], /Z$/);
      const checks = Object.fromEntries(outcome['checks'].map((check: any) => [check.type, check.status]));
      assert.equal(checks['document_expiry'], 'passed');
      assert.equal(checks['data_consistency'], 'passed');
      assert.equal(checks['age'], 'passed');
      assert.equal(checks['face_match'], 'inconclusive', 'never pretends a model ran');
      assert.equal(checks['watchlist'], 'not_performed');
      assert.match(outcome['identity_id'], /^idn_/);

      const identity = await json(await h.call('GET', `/v1/identities/${outcome['identity_id']}`, { key }));
      assert.equal(identity['status'], 'verified');
      assert.equal(identity['external_user_reference'], 'user-1');
      assert.equal(identity['attributes'].first_name, 'Jane');
      assert.equal(identity['attributes'].document.number, 'C01X00T47');
      assert.equal(identity['latest_session_id'], session['session_id']);

      const types = await eventTypes(h, session['session_id']);
      for (const type of [
        'session.created',
        'session.collecting',
        'session.processing',
        'identity.created',
      ]) {
        assert.ok(types.includes(type), `${type} was written`);
      }
      assert.equal(types.filter((type) => type === 'session.approved').length, 1);
      const [approved] = (await h.deps.db.query<{ payload: any }>(
        `select payload from events where session_id = $1 and type = 'session.approved'`,
        [session['session_id']],
      )) as [{ payload: any }];
      assert.equal(approved.payload.identity_id, outcome['identity_id']);
      assert.equal(approved.payload.decision, 'approved');
      assert.equal(JSON.stringify(approved.payload).includes('Jane'), false, 'events carry no personal data');
      const [job] = await findReviewJobsOfSession(h.deps.db, session['session_id']);
      assert.ok(job?.finished_at, 'the job is finished with the decision');
    });

    it('rejects an expired document with document_expired and allows a retry', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      book.set(session['session_id'], goodEvidence(h, { expiry_date: dayFrom(h, -10) }));
      await completeAndSubmit(h, key, session['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['document_expired'],
      );
      assert.ok(outcome['reasons'][0].user_message.length > 0);
      assert.equal(outcome['retry_allowed'], true);
      assert.equal(outcome['identity_id'], null, 'no identity without approval');
      assert.ok((await eventTypes(h, session['session_id'])).includes('session.rejected'));
    });

    it("rejects an underage person against the tenant's minimum age, with no retry", async () => {
      const key = h.tenant.sandboxKey;
      await h.deps.db.query('update tenants set minimum_age = 21 where id = $1', [h.tenant.tenantId]);
      try {
        const session = await createSession(h, key);
        book.set(session['session_id'], goodEvidence(h, { date_of_birth: bornYearsAgo(h, 19) }));
        await completeAndSubmit(h, key, session['session_id']);
        await worker(h).runOnce();
        const outcome = await result(h, key, session['session_id']);
        assert.equal(outcome['decision'], 'rejected');
        assert.deepEqual(
          outcome['reasons'].map((reason: any) => reason.code),
          ['underage'],
        );
        assert.equal(outcome['retry_allowed'], false);
      } finally {
        await h.deps.db.query('update tenants set minimum_age = 18 where id = $1', [h.tenant.tenantId]);
      }
    });

    it('rejects details that the MRZ contradicts with data_mismatch', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      const evidence = goodEvidence(h);
      evidence.id_document!.mrz!.document_number = 'X99Y11Z22';
      book.set(session['session_id'], evidence);
      await completeAndSubmit(h, key, session['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['data_mismatch'],
      );
    });

    it('sends the same complete evidence to review in production, where models are missing', async () => {
      const key = h.tenant.productionKey;
      const session = await createSession(h, key);
      book.set(session['session_id'], goodEvidence(h));
      await completeAndSubmit(h, key, session['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['status'], 'review_required');
      assert.equal(outcome['decision'], 'review_required');
      assert.deepEqual(outcome['reasons'], []);
      assert.ok(outcome['checks'].some((check: any) => check.status === 'inconclusive'));
      assert.equal(outcome['retry_allowed'], false);
      assert.ok((await eventTypes(h, session['session_id'])).includes('session.review_required'));
    });

    it('honours the create-time sandbox outcome and its reason codes', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key, {
        sandbox: { outcome: 'rejected', reason_codes: ['liveness_failed'] },
      });
      book.set(session['session_id'], goodEvidence(h));
      await completeAndSubmit(h, key, session['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['sandbox_forced', 'liveness_failed'],
      );
    });

    it('holds a sandbox session in processing for its processing_delay_ms', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key, {
        sandbox: { outcome: 'approved', processing_delay_ms: 5_000 },
      });
      book.set(session['session_id'], goodEvidence(h));
      await completeAndSubmit(h, key, session['session_id']);
      const early = await worker(h).runOnce();
      assert.equal(early.claimed, 0, 'not due yet');
      assert.equal((await result(h, key, session['session_id']))['status'], 'processing');
      h.clock.advance(5_000);
      await worker(h).runOnce();
      assert.equal((await result(h, key, session['session_id']))['status'], 'approved');
    });

    it('screens a tier3 sandbox session against the fictional sample list and sends a hit to review', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key, { tier: 'tier3' });
      const evidence = goodEvidence(h, {
        first_name: 'Ivan',
        last_name: 'Fictitous',
        date_of_birth: '1971-04-01',
      });
      evidence.proof_of_address = {
        document_type: 'utility_bill',
        images: [{ side: 'front', quality: { ok: true, issues: [] } }],
      };
      book.set(session['session_id'], evidence);
      await completeAndSubmit(h, key, session['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['decision'], 'review_required');
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['watchlist_hit'],
      );
      const watchlist = outcome['checks'].find((check: any) => check.type === 'watchlist');
      assert.equal(watchlist.status, 'failed');
      assert.equal(watchlist.details.hits, 1);
    });
  });
}
