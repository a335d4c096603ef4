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

    it('never rejects for document photos refused for capture quality: they cost no attempt', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const tiny = new Uint8Array(await sharp(images.front).resize(400).jpeg().toBuffer());
      for (let i = 0; i < 4; i++) {
        const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(tiny),
        });
        assert.equal(response.status, 201);
        const body = await json(response);
        assert.deepEqual(body['quality']['issues'], ['too_small']);
        assert.equal(body['attempts_remaining'], 3);
      }
      const body = await result(sessionId);
      assert.equal(body['status'], 'collecting');
      assert.equal(body['decision'], null);
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
      assert.match(body['reasons'][0].message, /liveness/);
      assert.deepEqual(body['checks'], [
        {
          type: 'liveness',
          status: 'failed',
          reason_codes: ['attempts_exhausted'],
          details: { step: 'liveness' },
        },
      ]);
    });

    it('writes no decision while attempts remain', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const challenge = await json(await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }));
      const frames = [images.frames[0]!, images.frames[0]!, images.frames[0]!];
      await verifyCall(h, 'POST', '/v1/verify/liveness', {
        token,
        form: framesForm(challenge['challenge_id'], frames),
      });
      const body = await result(sessionId);
      assert.equal(body['status'], 'collecting');
      assert.equal(body['decision'], null);
      assert.deepEqual(body['reasons'], []);
      assert.deepEqual(body['checks'], []);
    });
  });
}
