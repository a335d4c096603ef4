import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  completeAndSubmit,
  createSession,
  EvidenceBook,
  eventTypes,
  goodEvidence,
  loginAs,
  result,
  worker,
} from './pipeline-support.ts';

for (const engine of testEngines()) {
  describe(`resubmission and manual review (${engine})`, () => {
    let h: TestHarness;
    const book = new EvidenceBook();
    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
    });
    after(() => h.close());

    it('sends an unreadable document back to the end-user twice, then rejects', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      const id = session['session_id'];
      const unreadable = goodEvidence(h);
      unreadable.id_document!.images = [{ side: 'front', quality: { ok: false, issues: ['blurry'] } }];
      book.set(id, unreadable);

      for (let round = 1; round <= 2; round++) {
        await completeAndSubmit(h, key, id);
        const report = await worker(h).runOnce();
        assert.equal(report.resubmissions, 1, `round ${round} asks for a resubmission`);
        const got = await json(await h.call('GET', `/v1/sessions/${id}`, { key }));
        assert.equal(got['status'], 'collecting');
        assert.equal(got['decision'], null);
        assert.equal(got['last_error'].code, 'document_unreadable');
        assert.ok(got['verify_url'], 'the end-user can act again');
        assert.equal(got['steps'].find((step: any) => step.step === 'id_document').status, 'pending');
        assert.equal(got['steps'].find((step: any) => step.step === 'consent').status, 'completed');
        const outcome = await result(h, key, id);
        assert.equal(outcome['decision'], null);
        assert.equal(outcome['retry_allowed'], true);
        assert.deepEqual(
          outcome['reasons'].map((reason: any) => reason.code),
          ['document_unreadable'],
        );
      }
      const types = await eventTypes(h, id);
      assert.equal(types.filter((type) => type === 'session.resubmission_requested').length, 2);

      await completeAndSubmit(h, key, id);
      await worker(h).runOnce();
      const final = await result(h, key, id);
      assert.equal(final['status'], 'rejected', 'the third unreadable capture is final');
      assert.deepEqual(
        final['reasons'].map((reason: any) => reason.code),
        ['document_unreadable'],
      );
      assert.equal(final['retry_allowed'], true, 'a new session may still succeed');
    });

    it('lets a reviewer approve a review_required session, vaulting the identity', async () => {
      const key = h.tenant.productionKey;
      const session = await createSession(h, key, { external_user_reference: 'reviewed-1' });
      const id = session['session_id'];
      book.set(id, goodEvidence(h, { first_name: 'Olga' }));
      await completeAndSubmit(h, key, id);
      await worker(h).runOnce();
      assert.equal((await result(h, key, id))['status'], 'review_required');

      const token = await loginAs(h, 'reviewer');
      const reviewed = await h.call('POST', `/v1/sessions/${id}/review`, {
        token,
        headers: { 'x-environment': 'production' },
        body: { decision: 'approve', note: 'Passport checked by hand against the selfie.' },
      });
      assert.equal(reviewed.status, 200, await reviewed.clone().text());
      assert.equal((await json(reviewed))['status'], 'approved');
      const outcome = await result(h, key, id);
      assert.equal(outcome['decided_by'], 'reviewer');
      assert.ok(outcome['checks'].length > 0, 'the automated checks stay on the result');
      const identity = await json(await h.call('GET', `/v1/identities/${outcome['identity_id']}`, { key }));
      assert.equal(identity['attributes'].first_name, 'Olga');
      const [stored] = await h.deps.db.query<{ note_enc: string }>(
        `select note_enc from session_decisions where session_id = $1 and decided_by = 'reviewer'`,
        [id],
      );
      assert.ok(stored?.note_enc && !stored.note_enc.includes('Passport'), 'the note is encrypted at rest');
    });

    it('lets a reviewer reject with reason codes; manual_rejection is always named', async () => {
      const key = h.tenant.productionKey;
      const session = await createSession(h, key);
      const id = session['session_id'];
      book.set(id, goodEvidence(h));
      await completeAndSubmit(h, key, id);
      await worker(h).runOnce();
      const reviewed = await h.call('POST', `/v1/sessions/${id}/review`, {
        key,
        body: { decision: 'reject', reason_codes: ['face_mismatch'] },
      });
      assert.equal(reviewed.status, 200);
      const outcome = await result(h, key, id);
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['manual_rejection', 'face_mismatch'],
      );
      assert.equal(outcome['retry_allowed'], false);
      assert.ok((await eventTypes(h, id)).includes('session.rejected'));
    });

    it('refuses to review a session that is not review_required (409) and bad bodies (400)', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      const id = session['session_id'];
      const early = await h.call('POST', `/v1/sessions/${id}/review`, { key, body: { decision: 'approve' } });
      assert.equal(early.status, 409);
      const problem = await json(early);
      assert.equal(problem['code'], 'invalid_state_transition');
      assert.equal(problem['current_status'], 'created');

      const wrong = await h.call('POST', `/v1/sessions/${id}/review`, { key, body: { decision: 'maybe' } });
      assert.equal(wrong.status, 400);
      const codes = await h.call('POST', `/v1/sessions/${id}/review`, {
        key,
        body: { decision: 'approve', reason_codes: ['underage'] },
      });
      assert.equal((await json(codes))['param'], 'reason_codes');
      const unknown = await h.call('POST', `/v1/sessions/${id}/review`, {
        key,
        body: { decision: 'reject', reason_codes: ['too_young'] },
      });
      assert.equal(unknown.status, 400);
    });

    it('refuses a manual review without sessions:review and hides other tenants’ sessions', async () => {
      const key = h.tenant.productionKey;
      const session = await createSession(h, key);
      const token = await loginAs(h, 'developer');
      const denied = await h.call('POST', `/v1/sessions/${session['session_id']}/review`, {
        token,
        headers: { 'x-environment': 'production' },
        body: { decision: 'approve' },
      });
      assert.equal(denied.status, 403);
      assert.equal((await json(denied))['code'], 'insufficient_capability');
      const foreign = await h.call('POST', `/v1/sessions/${session['session_id']}/review`, {
        key: h.other.productionKey,
        body: { decision: 'approve' },
      });
      assert.equal(foreign.status, 404);
    });
  });
}
