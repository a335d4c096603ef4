import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findReviewJobsOfSession } from '../../../server/store/jobs.ts';
import {
  createSession,
  EvidenceBook,
  eventTypes,
  goodEvidence,
  loginAs,
  result,
  simulate,
  worker,
} from '../review-pipeline/pipeline-support.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

for (const engine of testEngines()) {
  describe(`sandbox simulate (${engine})`, () => {
    let h: TestHarness;
    const book = new EvidenceBook();
    const key = () => h.tenant.sandboxKey;
    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
    });
    after(() => h.close());

    function post(id: string, body: unknown, credential: { key?: string; token?: string } = { key: key() }) {
      return h.call('POST', `/v1/sandbox/sessions/${id}/simulate`, { ...credential, body });
    }

    it('start moves created → collecting and fires session.collecting', async () => {
      const session = await createSession(h, key());
      const started = await simulate(h, key(), session['session_id'], 'start');
      assert.equal(started['status'], 'collecting');
      assert.ok((await eventTypes(h, session['session_id'])).includes('session.collecting'));
    });

    it('complete_steps completes every required step (starting first)', async () => {
      const session = await createSession(h, key());
      const done = await simulate(h, key(), session['session_id'], 'complete_steps');
      assert.equal(done['status'], 'collecting');
      assert.ok(done['steps'].every((step: any) => step.status === 'completed'));
    });

    it('submit goes through the real submit and queues the review job', async () => {
      const session = await createSession(h, key());
      const submitted = await simulate(h, key(), session['session_id'], 'submit');
      assert.equal(submitted['status'], 'processing');
      assert.ok(submitted['submitted_at']);
      assert.equal((await findReviewJobsOfSession(h.deps.db, session['session_id'])).length, 1);
      const types = await eventTypes(h, session['session_id']);
      assert.ok(types.includes('session.collecting') && types.includes('session.processing'));
    });

    it('approve walks a new session to approved as the engine would, vaulting an identity', async () => {
      const session = await createSession(h, key(), { external_user_reference: 'sim-approve' });
      book.set(session['session_id'], goodEvidence(h));
      const approved = await simulate(h, key(), session['session_id'], 'approve');
      assert.equal(approved['status'], 'approved');
      assert.match(approved['identity_id'], /^idn_/);
      const outcome = await result(h, key(), session['session_id']);
      assert.equal(outcome['decided_by'], 'automated');
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['sandbox_forced'],
      );
      const types = await eventTypes(h, session['session_id']);
      for (const type of [
        'session.collecting',
        'session.processing',
        'identity.created',
        'session.approved',
      ]) {
        assert.ok(types.includes(type), type);
      }
      const [job] = await findReviewJobsOfSession(h.deps.db, session['session_id']);
      assert.ok(job?.finished_at, 'the queued job is finished, so the worker never decides again');
      await worker(h).runOnce();
      const decisions = await h.deps.db.query('select 1 from session_decisions where session_id = $1', [
        session['session_id'],
      ]);
      assert.equal(decisions.length, 1);
    });

    it('reject carries its reason codes; a recapturable one asks for resubmission instead', async () => {
      const session = await createSession(h, key());
      const rejected = await simulate(h, key(), session['session_id'], 'reject', {
        reason_codes: ['underage'],
      });
      assert.equal(rejected['status'], 'rejected');
      const outcome = await result(h, key(), session['session_id']);
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['sandbox_forced', 'underage'],
      );

      const retry = await createSession(h, key());
      const sentBack = await simulate(h, key(), retry['session_id'], 'reject', {
        reason_codes: ['document_unreadable'],
      });
      assert.equal(sentBack['status'], 'collecting');
      assert.equal(sentBack['last_error'].code, 'document_unreadable');
      assert.ok((await eventTypes(h, retry['session_id'])).includes('session.resubmission_requested'));
    });

    it('review sends a session to review_required; approve and reject then act as a reviewer', async () => {
      const session = await createSession(h, key());
      book.set(session['session_id'], goodEvidence(h));
      const inReview = await simulate(h, key(), session['session_id'], 'review', {
        reason_codes: ['watchlist_hit'],
      });
      assert.equal(inReview['status'], 'review_required');
      const approved = await simulate(h, key(), session['session_id'], 'approve');
      assert.equal(approved['status'], 'approved');
      assert.equal((await result(h, key(), session['session_id']))['decided_by'], 'reviewer');

      const other = await createSession(h, key());
      await simulate(h, key(), other['session_id'], 'review');
      const rejected = await simulate(h, key(), other['session_id'], 'reject', {
        reason_codes: ['face_mismatch'],
      });
      assert.equal(rejected['status'], 'rejected');
      const outcome = await result(h, key(), other['session_id']);
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['manual_rejection', 'face_mismatch'],
      );
    });

    it('expire moves an open session to expired and fires session.expired', async () => {
      const session = await createSession(h, key());
      const expired = await simulate(h, key(), session['session_id'], 'expire');
      assert.equal(expired['status'], 'expired');
      assert.equal(expired['verify_url'], undefined);
      assert.ok((await eventTypes(h, session['session_id'])).includes('session.expired'));
    });

    it('refuses an action the session is already past (409)', async () => {
      const session = await createSession(h, key());
      await simulate(h, key(), session['session_id'], 'approve');
      for (const action of ['start', 'complete_steps', 'submit', 'approve', 'review', 'expire']) {
        const response = await post(session['session_id'], { action });
        assert.equal(response.status, 409, action);
        assert.equal((await json(response))['code'], 'invalid_state_transition');
      }
    });

    it('answers 403 sandbox_only to production credentials, before reading the body', async () => {
      const session = await createSession(h, h.tenant.productionKey);
      const response = await post(
        session['session_id'],
        { action: 'approve' },
        { key: h.tenant.productionKey },
      );
      assert.equal(response.status, 403);
      assert.equal((await json(response))['code'], 'sandbox_only');
      const garbage = await h.call('POST', `/v1/sandbox/sessions/${session['session_id']}/simulate`, {
        key: h.tenant.productionKey,
        rawBody: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal((await json(garbage))['code'], 'sandbox_only');
      const admin = await h.login();
      const console = await post(
        session['session_id'],
        { action: 'approve' },
        { token: admin }, // a Bearer token defaults to production
      );
      assert.equal((await json(console))['code'], 'sandbox_only');
      const unchanged = await json(
        await h.call('GET', `/v1/sessions/${session['session_id']}`, { key: h.tenant.productionKey }),
      );
      assert.equal(unchanged['status'], 'created');
    });

    it('needs sandbox:simulate, validates the body and scopes the session', async () => {
      const session = await createSession(h, key());
      const viewer = await loginAs(h, 'viewer');
      const denied = await h.call('POST', `/v1/sandbox/sessions/${session['session_id']}/simulate`, {
        token: viewer,
        headers: { 'x-environment': 'sandbox' },
        body: { action: 'start' },
      });
      assert.equal(denied.status, 403);
      assert.equal((await json(denied))['code'], 'insufficient_capability');
      assert.equal((await post(session['session_id'], { action: 'teleport' })).status, 400);
      assert.equal((await post(session['session_id'], {})).status, 400);
      const codes = await post(session['session_id'], { action: 'approve', reason_codes: ['underage'] });
      assert.equal((await json(codes))['param'], 'reason_codes');
      const foreign = await post(session['session_id'], { action: 'start' }, { key: h.other.sandboxKey });
      assert.equal(foreign.status, 404);
    });
  });
}
