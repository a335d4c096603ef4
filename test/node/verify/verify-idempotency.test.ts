import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  createConsentedSession,
  documentForm,
  framesForm,
  makeImages,
  verifyCall,
} from './verify-support.ts';

/**
 * A phone on a bad network sends the same request again when the answer is lost. With the same
 * `Idempotency-Key` the retry must replay the first answer: no second stored copy, no second attempt.
 */
for (const engine of testEngines()) {
  describe(`Idempotency-Key on the end-user POSTs (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    after(() => h.close());

    async function storedUploads(sessionId: string): Promise<number> {
      const rows = await h.deps.db.query<{ count: number }>(
        'select count(*)::int as count from verify_uploads where session_id = $1',
        [sessionId],
      );
      return rows[0]?.count ?? 0;
    }

    const blobsOf = (sessionId: string) => [...h.blobs.entries()].filter(([key]) => key.includes(sessionId));

    it('replays a retried document upload instead of storing a second copy', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const headers = { 'idempotency-key': 'upload-front-1' };
      // Two FormData objects: a retry is encoded again, with a new multipart boundary.
      const first = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        headers,
        form: documentForm(images.front),
      });
      assert.equal(first.status, 201);
      const firstBody = await json(first);
      const retry = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        headers,
        form: documentForm(images.front),
      });
      assert.equal(retry.status, 201);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(retry.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await json(retry), firstBody);
      assert.equal(await storedUploads(sessionId), 1);
      assert.equal(blobsOf(sessionId).length, 1);
    });

    it('stores every upload sent without a key (the control)', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      for (let i = 0; i < 2; i++) {
        const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(images.front),
        });
        assert.equal(response.status, 201);
      }
      assert.equal(await storedUploads(sessionId), 2);
    });

    it('keeps a retried photo with quality issues once, and answers it the same', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const tiny = new Uint8Array(
        await (await import('sharp')).default(images.front).resize(400).jpeg().toBuffer(),
      );
      const headers = { 'idempotency-key': 'tiny-photo' };
      const answers: [string, number][] = [];
      for (let i = 0; i < 2; i++) {
        const body = await json(
          await verifyCall(h, 'POST', '/v1/verify/documents', { token, headers, form: documentForm(tiny) }),
        );
        answers.push([body['upload_id'], body['attempts_remaining']]);
      }
      // A capture-quality refusal costs no attempt (issue #22); the replay is the first answer, not a new upload.
      assert.deepEqual(answers[1], answers[0]);
      assert.equal(answers[0]?.[1], 3);
      assert.equal(await storedUploads(sessionId), 1);
    });

    it('answers 422 idempotency_key_reused when the key comes back with another photo', async () => {
      const { token } = await createConsentedSession(h);
      const headers = { 'idempotency-key': 'same-key-other-photo' };
      const first = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        headers,
        form: documentForm(images.front),
      });
      assert.equal(first.status, 201);
      const other = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        headers,
        form: documentForm(images.back, { side: 'back' }),
      });
      assert.equal(other.status, 422);
      const problem = await json(other);
      assert.equal(problem['code'], 'idempotency_key_reused');
      assert.ok(problem['user_message']);
    });

    it('replays an error answer too', async () => {
      const { token } = await createConsentedSession(h);
      const headers = { 'idempotency-key': 'not-an-image' };
      const notImage = new TextEncoder().encode('definitely not a photo');
      const first = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        headers,
        form: documentForm(notImage),
      });
      assert.equal(first.status, 415);
      const retry = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        headers,
        form: documentForm(notImage),
      });
      assert.equal(retry.status, 415);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(retry.headers.get('content-type'), 'application/problem+json');
      assert.equal((await json(retry))['code'], 'unsupported_media_type');
    });

    it('keys by session: the handoff link replays the verify link’s answer, another session does not', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const handoff = await json(await verifyCall(h, 'POST', '/v1/verify/handoff', { token }));
      const handoffToken = String(handoff['handoff_url']).split('/verify/')[1] as string;
      const headers = { 'idempotency-key': 'shared-key' };
      const first = await json(
        await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          headers,
          form: documentForm(images.front),
        }),
      );
      const viaPhone = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token: handoffToken,
        headers,
        form: documentForm(images.front),
      });
      assert.equal(viaPhone.headers.get('idempotent-replayed'), 'true');
      assert.equal((await json(viaPhone))['upload_id'], first['upload_id']);
      assert.equal(await storedUploads(sessionId), 1);

      const other = await createConsentedSession(h);
      const elsewhere = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token: other.token,
        headers,
        form: documentForm(images.front),
      });
      assert.equal(elsewhere.status, 201);
      assert.equal(elsewhere.headers.get('idempotent-replayed'), null);
      assert.notEqual((await json(elsewhere))['upload_id'], first['upload_id']);
    });

    it('replays a liveness challenge and a liveness answer without using a second attempt', async () => {
      const { token } = await createConsentedSession(h);
      const challengeHeaders = { 'idempotency-key': 'challenge-1' };
      const challenge = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token, headers: challengeHeaders }),
      );
      const again = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token, headers: challengeHeaders }),
      );
      assert.equal(again['challenge_id'], challenge['challenge_id']);

      const repeated = [images.frames[0]!, images.frames[0]!, images.frames[0]!];
      const answerHeaders = { 'idempotency-key': 'frames-1' };
      const verdicts: [string, number][] = [];
      for (let i = 0; i < 2; i++) {
        const body = await json(
          await verifyCall(h, 'POST', '/v1/verify/liveness', {
            token,
            headers: answerHeaders,
            form: framesForm(challenge['challenge_id'], repeated),
          }),
        );
        verdicts.push([body['status'], body['attempts_remaining']]);
      }
      assert.deepEqual(verdicts, [
        ['retry', 2],
        ['retry', 2],
      ]);
    });

    it('keeps the stored answer encrypted: a handoff link never sits in the database in clear', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const response = await verifyCall(h, 'POST', '/v1/verify/handoff', {
        token,
        headers: { 'idempotency-key': 'handoff-1' },
      });
      const link = String((await json(response))['handoff_url']);
      const handoffToken = link.split('/verify/')[1] as string;
      const rows = await h.deps.db.query<Record<string, unknown>>(
        'select * from idempotency_keys where credential_id = $1',
        [sessionId],
      );
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(handoffToken));
      const replay = await verifyCall(h, 'POST', '/v1/verify/handoff', {
        token,
        headers: { 'idempotency-key': 'handoff-1' },
      });
      assert.equal((await json(replay))['handoff_url'], link);
    });

    it('refuses a key longer than 255 characters', async () => {
      const { token } = await createConsentedSession(h);
      const response = await verifyCall(h, 'POST', '/v1/verify/complete', {
        token,
        headers: { 'idempotency-key': 'k'.repeat(256) },
      });
      assert.equal(response.status, 400);
      const problem = await json(response);
      assert.equal(problem['code'], 'invalid_parameter');
      assert.equal(problem['param'], 'Idempotency-Key');
    });
  });
}
