import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  completeAndSubmit,
  createSession,
  EvidenceBook,
  eventTypes,
  goodEvidence,
  loginAs,
  result,
  worker,
} from '../review-pipeline/pipeline-support.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

for (const engine of testEngines()) {
  describe(`identities (${engine})`, () => {
    let h: TestHarness;
    const book = new EvidenceBook();
    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
    });
    after(() => h.close());

    async function approve(reference: string | undefined, person: Parameters<typeof goodEvidence>[1] = {}) {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key, reference ? { external_user_reference: reference } : {});
      book.set(session['session_id'], goodEvidence(h, person));
      await completeAndSubmit(h, key, session['session_id']);
      await worker(h).runOnce();
      const outcome = await result(h, key, session['session_id']);
      assert.equal(outcome['decision'], 'approved');
      return { sessionId: session['session_id'] as string, identityId: outcome['identity_id'] as string };
    }

    it('creates the identity on the first approval per user reference and updates it on the next', async () => {
      const first = await approve('user-77', { last_name: 'Doe' });
      h.clock.advance(60_000);
      const second = await approve('user-77', { last_name: 'Doe-Smith', document_number: 'D02Y11U58' });
      assert.equal(second.identityId, first.identityId, 'the same person keeps one identity');
      const identity = await json(
        await h.call('GET', `/v1/identities/${first.identityId}`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(identity['object'], 'identity');
      assert.equal(identity['environment'], 'sandbox');
      assert.equal(identity['attributes'].last_name, 'Doe-Smith', 'attributes refreshed');
      assert.equal(identity['attributes'].document.number, 'D02Y11U58');
      assert.equal(identity['latest_session_id'], second.sessionId);
      assert.equal(identity['biometric_reference'], true);
      assert.ok(identity['updated_at'] > identity['created_at']);
      assert.ok((await eventTypes(h, first.sessionId)).includes('identity.created'));
      const secondTypes = await eventTypes(h, second.sessionId);
      assert.ok(secondTypes.includes('identity.updated'));
      assert.ok(!secondTypes.includes('identity.created'));
    });

    it('creates separate identities for approvals without a user reference', async () => {
      const a = await approve(undefined);
      const b = await approve(undefined);
      assert.notEqual(a.identityId, b.identityId);
    });

    it('masks personal values for a role without identities:read_pii', async () => {
      const { identityId } = await approve('user-mask', { first_name: 'Jane', last_name: 'Doe' });
      const viewer = await loginAs(h, 'viewer');
      const masked = await json(
        await h.call('GET', `/v1/identities/${identityId}`, {
          token: viewer,
          headers: { 'x-environment': 'sandbox' },
        }),
      );
      assert.equal(masked['personal_data_masked'], true);
      assert.equal(masked['attributes'].first_name, 'J***');
      assert.equal(masked['attributes'].last_name, 'D***');
      assert.equal(masked['attributes'].date_of_birth, '1***');
      assert.equal(masked['attributes'].document.number, 'C***');
      assert.equal(masked['attributes'].nationality, null, 'unknown values stay null');
      const reviewer = await loginAs(h, 'reviewer');
      const clear = await json(
        await h.call('GET', `/v1/identities/${identityId}`, {
          token: reviewer,
          headers: { 'x-environment': 'sandbox' },
        }),
      );
      assert.equal(clear['attributes'].first_name, 'Jane');
      assert.equal(clear['personal_data_masked'], false);
    });

    it('keeps attributes encrypted at rest', async () => {
      const { identityId } = await approve('user-rest', {
        first_name: 'Zebediah',
        document_number: 'Q7R8S9T0U',
      });
      const [row] = await h.deps.db.query<Record<string, unknown>>('select * from identities where id = $1', [
        identityId,
      ]);
      const raw = JSON.stringify(row);
      assert.ok(!raw.includes('Zebediah'));
      assert.ok(!raw.includes('Q7R8S9T0U'));
      assert.ok(!raw.includes('user-rest'));
    });

    it('lists identities newest first with a cursor and a user-reference filter', async () => {
      const key = h.tenant.sandboxKey;
      const page1 = await json(await h.call('GET', '/v1/identities?limit=2', { key }));
      assert.equal(page1['object'], 'list');
      assert.equal(page1['data'].length, 2);
      assert.equal(page1['has_more'], true);
      const last = page1['data'][1].identity_id;
      const page2 = await json(await h.call('GET', `/v1/identities?limit=2&starting_after=${last}`, { key }));
      assert.ok(
        page2['data'].every(
          (item: any) => !page1['data'].some((seen: any) => seen.identity_id === item.identity_id),
        ),
      );
      const filtered = await json(
        await h.call('GET', '/v1/identities?external_user_reference=user-77', { key }),
      );
      assert.equal(filtered['data'].length, 1);
      assert.equal(filtered['data'][0].external_user_reference, 'user-77');
      const badCursor = await h.call('GET', '/v1/identities?starting_after=idn_nope', { key });
      assert.equal((await json(badCursor))['code'], 'invalid_cursor');
      const unknown = await h.call('GET', '/v1/identities?colour=red', { key });
      assert.equal(unknown.status, 400);
    });

    it('hides identities of other tenants and environments (404)', async () => {
      const { identityId } = await approve('user-scope');
      for (const key of [h.other.sandboxKey, h.tenant.productionKey]) {
        const response = await h.call('GET', `/v1/identities/${identityId}`, { key });
        assert.equal(response.status, 404);
        assert.equal((await json(response))['code'], 'resource_missing');
      }
      const listed = await json(await h.call('GET', '/v1/identities', { key: h.other.sandboxKey }));
      assert.equal(listed['data'].length, 0);
    });
  });
}
