import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  completeAndSubmit,
  createSession,
  EvidenceBook,
  eventTypes,
  goodEvidence,
  result,
  simulate,
  worker,
} from '../review-pipeline/pipeline-support.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

for (const engine of testEngines()) {
  describe(`re-verification (${engine})`, () => {
    let h: TestHarness;
    const book = new EvidenceBook();
    const key = () => h.tenant.sandboxKey;
    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
    });
    after(() => h.close());

    async function verifiedIdentity(tier: 'tier1' | 'tier2', reference: string): Promise<string> {
      const session = await createSession(h, key(), { tier, external_user_reference: reference });
      const evidence = goodEvidence(h);
      if (tier === 'tier1') delete evidence.liveness;
      book.set(session['session_id'], evidence);
      await completeAndSubmit(h, key(), session['session_id']);
      await worker(h).runOnce();
      return (await result(h, key(), session['session_id']))['identity_id'];
    }

    function request(identityId: string, body: Record<string, unknown>) {
      return h.call('POST', `/v1/identities/${identityId}/reverification-requests`, { key: key(), body });
    }

    it('runs a full re-verification round trip and refreshes the identity', async () => {
      const identityId = await verifiedIdentity('tier2', 'rv-full');
      const created = await request(identityId, { reason: 'Annual refresh', reason_code: 'periodic_review' });
      assert.equal(created.status, 201, await created.clone().text());
      const body = await json(created);
      assert.equal(body['object'], 'reverification_request');
      assert.match(body['reverification_request_id'], /^rvr_/);
      assert.equal(body['status'], 'pending');
      assert.equal(body['mode'], 'full');
      assert.equal(body['reason'], 'Annual refresh');
      assert.deepEqual(body['required_steps'], ['consent', 'id_document', 'liveness']);
      assert.ok(body['verify_url']);
      assert.equal(body['completed_at'], null);

      const linked = await json(await h.call('GET', `/v1/sessions/${body['session_id']}`, { key: key() }));
      assert.equal(linked['reverification_request_id'], body['reverification_request_id']);
      assert.equal(linked['identity_id'], identityId);
      assert.equal(linked['external_user_reference'], 'rv-full');
      const pending = await json(await h.call('GET', `/v1/identities/${identityId}`, { key: key() }));
      assert.equal(pending['status'], 'reverification_pending');

      const open = await h.call('GET', `/v1/identities/${identityId}/reverification-request`, { key: key() });
      assert.equal(open.status, 200);
      assert.equal((await json(open))['reverification_request_id'], body['reverification_request_id']);

      book.set(body['session_id'], goodEvidence(h, { last_name: 'Doe-Renewed' }));
      await simulate(h, key(), body['session_id'], 'start');
      const inProgress = await json(
        await h.call('GET', `/v1/identities/${identityId}/reverification-request`, { key: key() }),
      );
      assert.equal(inProgress['status'], 'in_progress');
      await completeAndSubmit(h, key(), body['session_id']);
      await worker(h).runOnce();

      const identity = await json(await h.call('GET', `/v1/identities/${identityId}`, { key: key() }));
      assert.equal(identity['status'], 'verified');
      assert.equal(identity['attributes'].last_name, 'Doe-Renewed');
      assert.equal(identity['latest_session_id'], body['session_id']);
      const types = await eventTypes(h, body['session_id']);
      assert.ok(types.includes('reverification.completed'));
      assert.ok(types.includes('identity.updated'));
      const gone = await h.call('GET', `/v1/identities/${identityId}/reverification-request`, { key: key() });
      assert.equal(gone.status, 404);
      assert.equal((await json(gone))['code'], 'no_reverification_request');
    });

    it('allows one open request per identity: the second is 409 with the existing id', async () => {
      const identityId = await verifiedIdentity('tier2', 'rv-conflict');
      const first = await json(
        await request(identityId, { reason: 'Risk event', reason_code: 'high_risk_action' }),
      );
      const second = await request(identityId, { reason: 'Again' });
      assert.equal(second.status, 409);
      const problem = await json(second);
      assert.equal(problem['code'], 'reverification_already_pending');
      assert.equal(problem['existing_id'], first['reverification_request_id']);

      // Once the open one ends (here it expires), a new request is accepted.
      await simulate(h, key(), first['session_id'], 'expire');
      const third = await request(identityId, { reason: 'After expiry' });
      assert.equal(third.status, 201);
      const identity = await json(await h.call('GET', `/v1/identities/${identityId}`, { key: key() }));
      assert.equal(identity['status'], 'reverification_pending');
    });

    it('settles a request whose session was cancelled, so it never blocks the next one', async () => {
      const identityId = await verifiedIdentity('tier2', 'rv-cancel');
      const first = await json(await request(identityId, { reason: 'Check' }));
      const cancelled = await h.call('DELETE', `/v1/sessions/${first['session_id']}`, { key: key() });
      assert.equal(cancelled.status, 200);
      const none = await h.call('GET', `/v1/identities/${identityId}/reverification-request`, { key: key() });
      assert.equal(none.status, 404);
      const identity = await json(await h.call('GET', `/v1/identities/${identityId}`, { key: key() }));
      assert.equal(identity['status'], 'verified', 'a cancelled request leaves the identity as it was');
      assert.equal((await request(identityId, { reason: 'Next' })).status, 201);
    });

    it('writes reverification.completed in the same transaction as the cancel, before anyone reads it', async () => {
      const identityId = await verifiedIdentity('tier2', 'rv-cancel-event');
      const first = await json(await request(identityId, { reason: 'Check' }));
      assert.ok(!(await eventTypes(h, first['session_id'])).includes('reverification.completed'));
      await h.call('DELETE', `/v1/sessions/${first['session_id']}`, { key: key() });
      const rows = await h.deps.db.query<{ type: string; payload: Record<string, unknown> }>(
        `select type, payload from events where identity_id = $1 and type = 'reverification.completed'`,
        [identityId],
      );
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.payload['status'], 'cancelled');
    });

    it('runs a biometric re-verification against the enrolled selfie; a rejection marks the identity failed', async () => {
      const identityId = await verifiedIdentity('tier2', 'rv-bio');
      const created = await request(identityId, { reason: 'Login from a new device', mode: 'biometric' });
      assert.equal(created.status, 201);
      const body = await json(created);
      assert.deepEqual(body['required_steps'], ['consent', 'liveness']);
      book.set(body['session_id'], { consent: { accepted: true }, liveness: { accepted: false } });
      await completeAndSubmit(h, key(), body['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key(), body['session_id']);
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(
        outcome['reasons'].map((reason: any) => reason.code),
        ['liveness_failed'],
      );
      const identity = await json(await h.call('GET', `/v1/identities/${identityId}`, { key: key() }));
      assert.equal(identity['status'], 'reverification_failed');
      assert.equal(identity['attributes'].first_name, 'Jane', 'attributes untouched by a failed check');

      const retry = await json(await request(identityId, { reason: 'Second try', mode: 'biometric' }));
      book.set(retry['session_id'], { consent: { accepted: true }, liveness: { accepted: true } });
      await completeAndSubmit(h, key(), retry['session_id']);
      await worker(h).runOnce();
      const refreshed = await json(await h.call('GET', `/v1/identities/${identityId}`, { key: key() }));
      assert.equal(refreshed['status'], 'verified');
      assert.equal(refreshed['attributes'].first_name, 'Jane', 'a biometric check keeps the document data');
      assert.equal(refreshed['latest_session_id'], retry['session_id']);
    });

    it('refuses a biometric re-verification without an enrolled selfie (422)', async () => {
      const identityId = await verifiedIdentity('tier1', 'rv-noselfie');
      const response = await request(identityId, { reason: 'Check', mode: 'biometric' });
      assert.equal(response.status, 422);
      const problem = await json(response);
      assert.equal(problem['code'], 'biometric_reference_missing');
      assert.equal(problem['param'], 'mode');
    });

    it('validates the request and scopes it to the tenant', async () => {
      const identityId = await verifiedIdentity('tier2', 'rv-validate');
      assert.equal((await request(identityId, {})).status, 400);
      assert.equal((await request(identityId, { reason: 'x'.repeat(501) })).status, 400);
      assert.equal((await request(identityId, { reason: 'ok', mode: 'partial' })).status, 400);
      assert.equal((await request(identityId, { reason: 'ok', colour: 'red' })).status, 400);
      const foreign = await h.call('POST', `/v1/identities/${identityId}/reverification-requests`, {
        key: h.other.sandboxKey,
        body: { reason: 'Not yours' },
      });
      assert.equal(foreign.status, 404);
      const missing = await request('idn_doesnotexist', { reason: 'ok' });
      assert.equal((await json(missing))['code'], 'resource_missing');
      const production = await h.call('POST', `/v1/identities/${identityId}/reverification-requests`, {
        key: h.tenant.productionKey,
        body: { reason: 'Wrong environment' },
      });
      assert.equal(production.status, 404);
    });
  });
}
