import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteSessionEvidence } from '../../../server/features/evidence/delete-session-evidence.ts';
import { loginAs, result, worker } from '../review-pipeline/pipeline-support.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { ANNA, createVerifySession, documentForm, verifyCall } from '../verify/verify-support.ts';
import { documentJpeg } from '../evidence/synthetic-images.ts';

/**
 * With the real evidence collector, over HTTP: what the end-user typed and picked reaches the identity,
 * and an identity's document number is found again by the duplicate look-up.
 */
for (const engine of testEngines()) {
  describe(`identities from real evidence (${engine})`, () => {
    let h: TestHarness;
    let seed = 100;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    /** A tier1 session walked by its end-user (consent, both sides, details) and reviewed. */
    async function walk(options: {
      reference: string;
      issuingCountry?: string;
      details?: Partial<Record<keyof typeof ANNA, string>>;
    }): Promise<{ sessionId: string; outcome: Record<string, any> }> {
      const { sessionId, token } = await createVerifySession(h, {
        tier: 'tier1',
        external_user_reference: options.reference,
      });
      const call = (method: string, path: string, extra: Parameters<typeof verifyCall>[3] = {}) =>
        verifyCall(h, method, path, { token, ...extra });
      assert.equal(
        (await call('POST', '/v1/verify/consent', { body: { accepted: true, consent_version: 'v1' } }))
          .status,
        200,
      );
      const country = options.issuingCountry ?? 'DEU';
      // Fresh photos per walk: reused image bytes would be a duplicate signal of their own.
      for (const side of ['front', 'back'] as const) {
        const image = await documentJpeg({ seed: seed++ });
        const upload = await call('POST', '/v1/verify/documents', {
          form: documentForm(image, { side, issuing_country: country }),
        });
        assert.equal(upload.status, 201);
      }
      const put = await call('PUT', '/v1/verify/details', { body: { ...ANNA, ...options.details } });
      assert.equal(put.status, 200, await put.clone().text());
      assert.equal((await call('POST', '/v1/verify/complete')).status, 200);
      await worker(h).runOnce();
      return { sessionId, outcome: await result(h, h.tenant.sandboxKey, sessionId) };
    }

    it('vaults the stated nationality and the issuing country, masked without identities:read_pii', async () => {
      const { outcome } = await walk({
        reference: 'nationality-1',
        issuingCountry: 'AUT',
        details: { nationality: 'SWE' },
      });
      assert.equal(outcome['decision'], 'approved', JSON.stringify(outcome['checks']));
      const path = `/v1/identities/${outcome['identity_id']}`;
      const clear = await json(await h.call('GET', path, { key: h.tenant.sandboxKey }));
      assert.equal(clear['attributes'].nationality, 'SWE');
      assert.equal(clear['attributes'].document.issuing_country, 'AUT');
      assert.equal(clear['attributes'].document.type, 'id_card');

      const viewer = await loginAs(h, 'viewer');
      const masked = await json(
        await h.call('GET', path, { token: viewer, headers: { 'x-environment': 'sandbox' } }),
      );
      assert.equal(masked['personal_data_masked'], true);
      assert.equal(masked['attributes'].nationality, 'S***');
      assert.equal(masked['attributes'].document.issuing_country, 'A***');
    });

    it('flags a document number held by another user’s identity after that user’s evidence is gone', async () => {
      // Typed with spaces, dashes and lower case: the identity's index must normalise like the details'.
      const first = await walk({ reference: 'holder-a', details: { document_number: 'c01-x00 t47' } });
      assert.equal(first.outcome['decision'], 'approved', JSON.stringify(first.outcome['checks']));
      // Retention has removed the first session's details: only the identity still knows the number.
      await deleteSessionEvidence(h.deps.db, h.deps, first.sessionId);

      const second = await walk({ reference: 'holder-b', details: { document_number: 'C01X00T47' } });
      const duplicate = second.outcome['checks'].find((check: any) => check.type === 'duplicate_detection');
      assert.equal(duplicate.status, 'failed');
      assert.equal(duplicate.details.document_number_reused, true);
      assert.equal(second.outcome['decision'], 'review_required');
      assert.ok(second.outcome['reasons'].some((reason: any) => reason.code === 'duplicate_identity'));
    });

    it('does not flag the same user’s own identity when they verify again', async () => {
      const first = await walk({ reference: 'same-holder', details: { document_number: 'Q77 R88 S99' } });
      assert.equal(first.outcome['decision'], 'approved');
      await deleteSessionEvidence(h.deps.db, h.deps, first.sessionId);
      const again = await walk({ reference: 'same-holder', details: { document_number: 'Q77R88S99' } });
      const duplicate = again.outcome['checks'].find((check: any) => check.type === 'duplicate_detection');
      assert.equal(duplicate.status, 'passed');
      assert.equal(again.outcome['decision'], 'approved');
      assert.equal(again.outcome['identity_id'], first.outcome['identity_id']);
    });
  });
}
