import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  createConsentedSession,
  documentForm,
  framesForm,
  makeImages,
  verifyCall,
} from './verify-support.ts';

for (const engine of testEngines()) {
  describe(`a session rejected for attempts_exhausted explains itself (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    after(() => h.close());

    async function result(sessionId: string) {
      const response = await h.call('GET', `/v1/sessions/${sessionId}/result`, { key: h.tenant.sandboxKey });
      assert.equal(response.status, 200);
      return json(response);
    }

    it('reports the reason and the failed document_quality check after three unusable document photos', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const tiny = new Uint8Array(await sharp(images.front).resize(400).jpeg().toBuffer());
      for (let i = 0; i < 3; i++) {
        const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(tiny),
        });
        assert.equal(response.status, 201);
      }
      const body = await result(sessionId);
      assert.equal(body['status'], 'rejected');
      assert.equal(body['decision'], 'rejected');
      assert.equal(body['decided_by'], 'automated');
      assert.ok(body['decided_at']);
      assert.equal(body['retry_allowed'], true, 'a new session may try again');
      assert.equal(body['reasons'].length, 1);
      const [reason] = body['reasons'];
      assert.equal(reason.code, 'attempts_exhausted');
      assert.match(reason.message, /id_document/);
      assert.match(reason.user_message, /document/);
      assert.deepEqual(body['checks'], [
        {
          type: 'document_quality',
          status: 'failed',
          reason_codes: ['attempts_exhausted'],
          details: { step: 'id_document', attempts: 3 },
        },
      ]);
    });

    it('reports the failed liveness check after three rejected selfie attempts', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      for (let i = 0; i < 3; i++) {
        const challenge = await json(await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }));
        // The same frame three times: the perceptual hashes match, so the attempt is a retry.
        const frames = [images.frames[0]!, images.frames[0]!, images.frames[0]!];
        const answer = await verifyCall(h, 'POST', '/v1/verify/liveness', {
          token,
          form: framesForm(challenge['challenge_id'], frames),
        });
        assert.equal((await json(answer))['status'], 'retry');
      }
      const body = await result(sessionId);
      assert.equal(body['status'], 'rejected');
      assert.equal(body['decided_by'], 'automated');
      assert.deepEqual(
        body['reasons'].map((reason: { code: string }) => reason.code),
        ['attempts_exhausted'],
      );
      assert.match(body['reasons'][0].user_message, /selfie/);
      assert.equal(body['checks'].length, 1);
      assert.equal(body['checks'][0].type, 'liveness');
      assert.equal(body['checks'][0].status, 'failed');
      assert.deepEqual(body['checks'][0].reason_codes, ['attempts_exhausted']);
    });

    it('writes no decision while attempts remain', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const tiny = new Uint8Array(await sharp(images.front).resize(400).jpeg().toBuffer());
      await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(tiny) });
      const body = await result(sessionId);
      assert.equal(body['status'], 'collecting');
      assert.equal(body['decision'], null);
      assert.deepEqual(body['reasons'], []);
      assert.deepEqual(body['checks'], []);
    });
  });
}
