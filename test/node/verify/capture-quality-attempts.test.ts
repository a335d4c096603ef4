// Issue #22: a refusal for capture quality costs no attempt, at the document step and at liveness;
// attempts count only judged tries, a session is never rejected for capture quality alone, and the
// 12-upload limit still bounds free retakes. The tenant's `attempts_per_step` sets each new session's
// attempts. On the embedded database and, with TEST_DATABASE_URL, on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_KEY_CACHE_TTL_MS } from '../../../server/http/authenticate.ts';
import { transformJpeg } from '../evidence/synthetic-images.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  createConsentedSession,
  createVerifySession,
  documentForm,
  framesForm,
  makeImages,
  verifyCall,
} from './verify-support.ts';

for (const engine of testEngines()) {
  describe(`capture quality costs no attempt; tenants set the attempts per step (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      admin = await h.login();
      images = await makeImages();
    });
    after(() => h.close());

    async function tenantSession(sessionId: string) {
      return json(await h.call('GET', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey }));
    }

    async function answerChallenge(token: string, frames: readonly Uint8Array[]) {
      const challenge = await json(await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }));
      const response = await verifyCall(h, 'POST', '/v1/verify/liveness', {
        token,
        form: framesForm(challenge['challenge_id'], frames),
      });
      assert.equal(response.status, 200);
      return json(response);
    }

    it('keeps refused document photos at no attempt’s cost until the 12-upload limit, never rejecting', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const blurred = await transformJpeg(images.front, (image) => image.blur(12));
      const dark = await transformJpeg(images.front, (image) => image.linear(0.15, 0));
      for (let i = 0; i < 12; i++) {
        const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(i % 2 ? blurred : dark),
        });
        assert.equal(response.status, 201, `upload ${i + 1}`);
        const body = await json(response);
        assert.equal(body['quality']['ok'], false);
        assert.deepEqual(body['quality']['issues'], [i % 2 ? 'blurry' : 'too_dark']);
        assert.equal(body['attempts_remaining'], 3, `upload ${i + 1}`);
        assert.equal(body['session_status'], 'collecting');
      }
      // The bound on free retakes: the 13th photo is refused, the session stays open.
      const thirteenth = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(images.front),
      });
      assert.equal(thirteenth.status, 409);
      assert.equal((await json(thirteenth))['code'], 'upload_limit_reached');
      const session = await tenantSession(sessionId);
      assert.equal(session['status'], 'collecting');
      assert.equal(
        session['steps'].find((s: { step: string }) => s.step === 'id_document').attempts_remaining,
        3,
      );
    });

    it('refuses dark selfie frames before any judgement, keeps none of them, and uses no attempt', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const dark = await Promise.all(
        images.frames.map((frame) => transformJpeg(frame, (image) => image.linear(0.12, 0))),
      );
      for (let i = 0; i < 4; i++) {
        const body = await answerChallenge(token, dark);
        assert.equal(body['status'], 'retry');
        assert.equal(body['reason'], 'capture_quality');
        assert.deepEqual(body['quality_issues'], ['too_dark']);
        assert.match(body['user_message'], /brighter/);
        assert.equal(body['attempts_remaining'], 3);
        assert.equal(body['session_status'], 'collecting');
      }
      const evidence = await json(
        await h.call('GET', `/v1/sessions/${sessionId}/evidence`, {
          token: admin,
          headers: { 'x-environment': 'sandbox' },
        }),
      );
      assert.deepEqual(evidence['data'], [], 'frames refused for capture quality are not kept');
      // A judged try still costs one: the same picture three times is a replay.
      const judged = await answerChallenge(token, [images.frames[0]!, images.frames[0]!, images.frames[0]!]);
      assert.equal(judged['reason'], 'frames_repeated');
      assert.equal(judged['attempts_remaining'], 2);
    });

    it('costs no attempt for undecodable frames either: nothing was judged', async () => {
      const { token } = await createConsentedSession(h);
      const junk = new TextEncoder().encode('not a picture at all');
      const body = await answerChallenge(token, [images.frames[0]!, junk, images.frames[2]!]);
      assert.equal(body['reason'], 'frame_undecodable');
      assert.equal(body['attempts_remaining'], 3);
    });

    it('defaults to 3 attempts per step and round-trips attempts_per_step through PATCH and GET', async () => {
      const initial = await json(await h.call('GET', '/v1/tenant', { key: h.tenant.sandboxKey }));
      assert.equal(initial['attempts_per_step'], 3);
      const patched = await h.call('PATCH', '/v1/tenant', { token: admin, body: { attempts_per_step: 5 } });
      assert.equal(patched.status, 200);
      assert.equal((await json(patched))['attempts_per_step'], 5);
      const read = await json(await h.call('GET', '/v1/tenant', { key: h.tenant.productionKey }));
      assert.equal(read['attempts_per_step'], 5);
      const other = await json(await h.call('GET', '/v1/tenant', { key: h.other.sandboxKey }));
      assert.equal(other['attempts_per_step'], 3, 'another tenant keeps its own');

      const { sessionId } = await createVerifySession(h);
      const session = await tenantSession(sessionId);
      assert.deepEqual(
        session['steps'].map((s: { attempts_remaining: number }) => s.attempts_remaining),
        [5, 5, 5],
      );
      await h.call('PATCH', '/v1/tenant', { token: admin, body: { attempts_per_step: 3 } });
    });

    it('takes a change written by another instance within the API key cache lifetime', async () => {
      // Session create keeps the setting as long as the key's row (http/attempts-per-step-cache.ts): a
      // change this instance did not serve (another instance's PATCH) shows once that time has passed.
      const steps = async () => {
        const { sessionId } = await createVerifySession(h);
        return (await tenantSession(sessionId))['steps'].map(
          (s: { attempts_remaining: number }) => s.attempts_remaining,
        );
      };
      assert.deepEqual(await steps(), [3, 3, 3]);
      await h.deps.db.query('update tenants set attempts_per_step = 4 where id = $1', [h.tenant.tenantId]);
      try {
        assert.deepEqual(await steps(), [3, 3, 3], 'kept for the cache lifetime');
        h.clock.advance(API_KEY_CACHE_TTL_MS + 1);
        assert.deepEqual(await steps(), [4, 4, 4], 'read again once it has passed');
      } finally {
        await h.call('PATCH', '/v1/tenant', { token: admin, body: { attempts_per_step: 3 } });
      }
      assert.deepEqual(await steps(), [3, 3, 3], 'a PATCH served here applies to the next session');
    });

    it('refuses attempts_per_step outside 1–10 with invalid_parameter', async () => {
      for (const body of [{ attempts_per_step: 0 }, { attempts_per_step: 11 }, { attempts_per_step: 2.5 }]) {
        const response = await h.call('PATCH', '/v1/tenant', { token: admin, body });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal((await json(response))['code'], 'invalid_parameter');
      }
    });

    it('applies the setting to sessions created after it: with 1 attempt, one judged failure rejects', async () => {
      const before = await createConsentedSession(h);
      await h.call('PATCH', '/v1/tenant', { token: admin, body: { attempts_per_step: 1 } });
      try {
        const after = await createConsentedSession(h);
        const dark = await Promise.all(
          images.frames.map((frame) => transformJpeg(frame, (image) => image.linear(0.12, 0))),
        );
        const refused = await answerChallenge(after.token, dark);
        assert.deepEqual([refused['reason'], refused['attempts_remaining']], ['capture_quality', 1]);
        const judged = await answerChallenge(after.token, [
          images.frames[0]!,
          images.frames[0]!,
          images.frames[0]!,
        ]);
        assert.deepEqual([judged['attempts_remaining'], judged['session_status']], [0, 'rejected']);
        // A session created before the change keeps its three.
        const earlier = await answerChallenge(before.token, [
          images.frames[0]!,
          images.frames[0]!,
          images.frames[0]!,
        ]);
        assert.deepEqual([earlier['attempts_remaining'], earlier['session_status']], [2, 'collecting']);
      } finally {
        await h.call('PATCH', '/v1/tenant', { token: admin, body: { attempts_per_step: 3 } });
      }
    });
  });
}
