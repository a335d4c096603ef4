import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  ANNA,
  annaMrz,
  createVerifySession,
  documentForm,
  framesForm,
  makeImages,
  mrzTd3,
  verifyCall,
} from '../verify/verify-support.ts';
import { result, worker } from './pipeline-support.ts';

type Details = Record<string, string>;

/**
 * HTTP only, with the real evidence collector: the end-user walks the hosted-page endpoints with JPEG
 * images made here, the tenant reads the result and the identity.
 */
for (const engine of testEngines()) {
  describe(`review pipeline end to end over the API (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    after(() => h.close());

    async function walk(details: Details, mrz: string, reference: string): Promise<string> {
      const { sessionId, token } = await createVerifySession(h, { external_user_reference: reference });
      const call = (method: string, path: string, options: Parameters<typeof verifyCall>[3] = {}) =>
        verifyCall(h, method, path, { token, ...options });
      assert.equal((await call('GET', '/v1/verify/session')).status, 200);
      const consent = await call('POST', '/v1/verify/consent', {
        body: { accepted: true, consent_version: '2025-01', locale: 'en' },
      });
      assert.equal(consent.status, 200);
      assert.equal(
        (await call('POST', '/v1/verify/documents', { form: documentForm(images.front) })).status,
        201,
      );
      const back = await call('POST', '/v1/verify/documents', {
        form: documentForm(images.back, { side: 'back' }),
      });
      assert.equal(back.status, 201);
      const put = await call('PUT', '/v1/verify/details', { body: { ...details, mrz } });
      assert.equal(put.status, 200, await put.clone().text());
      const challenge = await json(await call('POST', '/v1/verify/liveness/challenge'));
      const liveness = await call('POST', '/v1/verify/liveness', {
        form: framesForm(challenge['challenge_id'], images.frames),
      });
      assert.equal((await json(liveness))['status'], 'accepted');
      assert.equal((await call('POST', '/v1/verify/complete')).status, 200);
      await worker(h).runOnce();
      return sessionId;
    }

    const codes = (outcome: Record<string, any>) => outcome['reasons'].map((reason: any) => reason.code);

    it('approves a complete tier2 session and vaults the identity with its attributes', async () => {
      const sessionId = await walk({ ...ANNA }, annaMrz(), 'anna-e2e');
      const outcome = await result(h, h.tenant.sandboxKey, sessionId);
      assert.equal(outcome['decision'], 'approved', JSON.stringify(outcome['checks']));
      assert.equal(outcome['decided_by'], 'automated');
      const identity = await json(
        await h.call('GET', `/v1/identities/${outcome['identity_id']}`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(identity['status'], 'verified');
      assert.equal(identity['attributes'].last_name, 'Eriksson');
      assert.equal(identity['attributes'].document.number, 'L898902C3');
      assert.equal(identity['attributes'].document.type, 'id_card');
      assert.equal(identity['biometric_reference'], true);
    });

    it('asks for a review when the same photo bytes come back in another user’s session', async () => {
      // The first test uploaded these exact images for anna-e2e; a different user now sends them again.
      const details = { ...ANNA, document_number: 'R12345678' };
      const mrz = mrzTd3({
        surname: 'ERIKSSON',
        given: 'ANNA<MARIA',
        number: 'R12345678',
        birth: '740812',
        expiry: '340415',
      });
      const outcome = await result(h, h.tenant.sandboxKey, await walk(details, mrz, 'someone-else'));
      assert.equal(outcome['decision'], 'review_required', JSON.stringify(outcome['checks']));
      assert.deepEqual(codes(outcome), ['duplicate_identity']);
      const duplicate = outcome['checks'].find((check: any) => check.type === 'duplicate_detection');
      assert.equal(duplicate.status, 'failed');
      assert.equal(duplicate.details.image_reused, true);
    });

    it('rejects an expired document with document_expired', async () => {
      const details = { ...ANNA, document_number: 'X12345678', expiry_date: '2020-01-15' };
      const mrz = mrzTd3({
        surname: 'ERIKSSON',
        given: 'ANNA<MARIA',
        number: 'X12345678',
        birth: '740812',
        expiry: '200115',
      });
      const outcome = await result(h, h.tenant.sandboxKey, await walk(details, mrz, 'anna-expired'));
      assert.equal(outcome['decision'], 'rejected');
      assert.ok(codes(outcome).includes('document_expired'), JSON.stringify(codes(outcome)));
    });

    it('rejects an underage person with underage', async () => {
      const year = h.clock.now().getUTCFullYear() - 15;
      const details = { ...ANNA, document_number: 'Y12345678', date_of_birth: `${year}-01-10` };
      const birth = `${String(year).slice(2)}0110`;
      const mrz = mrzTd3({
        surname: 'ERIKSSON',
        given: 'ANNA<MARIA',
        number: 'Y12345678',
        birth,
        expiry: '340415',
      });
      const outcome = await result(h, h.tenant.sandboxKey, await walk(details, mrz, 'anna-young'));
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(codes(outcome), ['underage']);
    });

    it('rejects details that contradict the MRZ with data_mismatch', async () => {
      const details = { ...ANNA, document_number: 'Z12345678' };
      const mrz = mrzTd3({
        surname: 'ERIKSSON',
        given: 'ANNA<MARIA',
        number: 'Q98765432',
        birth: '740812',
        expiry: '340415',
      });
      const outcome = await result(h, h.tenant.sandboxKey, await walk(details, mrz, 'anna-mismatch'));
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(codes(outcome), ['data_mismatch']);
    });
  });
}
