import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blankJpeg, documentJpeg } from '../evidence/synthetic-images.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { createConsentedSession, documentForm, verifyCall } from './verify-support.ts';

for (const engine of testEngines()) {
  describe(`upload quality: an empty frame is no_document (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('asks for a retake of a photo of a blank wall with `no_document`, at no attempt’s cost', async () => {
      const token = (await createConsentedSession(h)).token;
      const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(await blankJpeg({ level: 170, noise: 10 })),
      });
      assert.equal(response.status, 201);
      const body = await json(response);
      assert.deepEqual(body['quality'], { ok: false, issues: ['no_document'] });
      assert.equal(body['step_status'], 'pending');
      assert.equal(body['attempts_remaining'], 3);
    });

    it('accepts a real card photo without `no_document`', async () => {
      const token = (await createConsentedSession(h)).token;
      const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(await documentJpeg({ seed: 41 })),
      });
      assert.deepEqual((await json(response))['quality'], { ok: true, issues: [] });
    });
  });
}
