import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contradictedFields } from '../../../server/domain/review/mrz-comparison.ts';
import { collectReviewEvidence } from '../../../server/features/evidence/collect-review-evidence.ts';
import { findSession, type SessionRow } from '../../../server/store/sessions.ts';
import { createHarness, json, TEST_BASE_URL, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  ANNA,
  annaMrz,
  createConsentedSession,
  createVerifySession,
  documentForm,
  framesForm,
  makeImages,
  mrzTd3,
  verifyCall,
} from './verify-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const engine of testEngines()) {
  describe(`end-user endpoints, bad input (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    after(() => h.close());

    async function problem(response: Response, status: number, code: string) {
      const body = await json(response);
      assert.equal(response.status, status, JSON.stringify(body));
      assert.equal(body['code'], code);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      return body;
    }

    it('answers 401 for a missing, malformed or unknown token', async () => {
      await problem(await verifyCall(h, 'GET', '/v1/verify/session'), 401, 'authentication_required');
      await problem(
        await verifyCall(h, 'GET', '/v1/verify/session', { token: 'not a token!' }),
        401,
        'invalid_token',
      );
      const unknown = await problem(
        await verifyCall(h, 'GET', '/v1/verify/session', { token: 'A'.repeat(28) }),
        401,
        'invalid_token',
      );
      assert.equal(typeof unknown['user_message'], 'string');
    });

    it('does not take an API key instead of a verify token', async () => {
      const response = await h.app.request(`${TEST_BASE_URL}/v1/verify/session`, {
        headers: { 'x-api-key': h.tenant.sandboxKey },
      });
      await problem(response, 401, 'authentication_required');
    });

    it('answers 410 session_expired once the session is past expires_at, reads and writes alike', async () => {
      const { sessionId, token } = await createVerifySession(h, { expires_in: 900 });
      h.clock.advance(901_000);
      await problem(await verifyCall(h, 'GET', '/v1/verify/session', { token }), 410, 'session_expired');
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/consent', {
          token,
          body: { accepted: true, consent_version: 'v1' },
        }),
        410,
        'session_expired',
      );
      const tenantView = await json(
        await h.call('GET', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(tenantView['status'], 'expired');
    });

    it('answers 410 verify_token_expired for a handoff link after 15 minutes, while the main link still works', async () => {
      const { token } = await createVerifySession(h);
      const handoff = await json(await verifyCall(h, 'POST', '/v1/verify/handoff', { token }));
      const phoneToken = String(handoff['handoff_url']).split('/verify/')[1];
      h.clock.advance(15 * 60 * 1000 + 1);
      await problem(
        await verifyCall(h, 'GET', '/v1/verify/session', { token: phoneToken }),
        410,
        'verify_token_expired',
      );
      assert.equal((await verifyCall(h, 'GET', '/v1/verify/session', { token })).status, 200);
    });

    it('does not let a handoff link mint another one', async () => {
      const { token } = await createVerifySession(h);
      const handoff = await json(await verifyCall(h, 'POST', '/v1/verify/handoff', { token }));
      const phoneToken = String(handoff['handoff_url']).split('/verify/')[1];
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/handoff', { token: phoneToken }),
        403,
        'insufficient_capability',
      );
    });

    it('keeps a finished session read-only: every write is 409, the read still answers', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      assert.equal(
        (await h.call('DELETE', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey })).status,
        200,
      );
      const writes: [string, string, Parameters<typeof verifyCall>[3]][] = [
        ['POST', '/v1/verify/consent', { body: { accepted: true, consent_version: 'v1' } }],
        ['POST', '/v1/verify/documents', { form: documentForm(images.front) }],
        ['PUT', '/v1/verify/details', { body: ANNA }],
        ['POST', '/v1/verify/liveness/challenge', {}],
        ['POST', '/v1/verify/complete', {}],
        ['POST', '/v1/verify/handoff', {}],
      ];
      for (const [method, path, options] of writes) {
        await problem(
          await verifyCall(h, method, path, { ...options, token }),
          409,
          'invalid_state_transition',
        );
      }
      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      assert.equal(view['status'], 'cancelled');
    });

    it('asks for consent before any evidence is taken', async () => {
      const { token } = await createVerifySession(h);
      const body = await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(images.front) }),
        409,
        'steps_incomplete',
      );
      assert.deepEqual(body['missing_steps'], ['consent']);
      await problem(
        await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: ANNA }),
        409,
        'steps_incomplete',
      );
    });

    it('validates consent: booleans only, no unknown fields', async () => {
      const { token } = await createVerifySession(h);
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/consent', {
          token,
          body: { accepted: 'yes', consent_version: 'v1' },
        }),
        400,
        'invalid_parameter',
      );
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/consent', {
          token,
          body: { accepted: true, consent_version: 'v1', ip: '1.2.3.4' },
        }),
        400,
        'unknown_parameter',
      );
    });

    it('answers 415 for an upload that is not multipart, and for bytes that are not a JPEG, PNG or WebP', async () => {
      const { token } = await createConsentedSession(h);
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, body: { image: 'base64…' } }),
        415,
        'unsupported_media_type',
      );
      const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj');
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(pdf, {}, 'scan.jpg'),
        }),
        415,
        'unsupported_media_type',
      );
      // A multipart type with a parameter besides its boundary (RFC 7578 defines none) is told what to send.
      const encoded = new Response(documentForm(images.front));
      const boundary = encoded.headers.get('content-type')?.split('boundary=')[1] ?? '';
      const withCharset = await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          headers: { 'content-type': `multipart/form-data; charset=utf-8; boundary=${boundary}` },
          raw: new Uint8Array(await encoded.arrayBuffer()),
        }),
        415,
        'unsupported_media_type',
      );
      assert.match(String(withCharset['detail']), /multipart\/form-data; boundary=/);
    });

    it('answers 422 unprocessable_image for a truncated JPEG, and it costs no attempt', async () => {
      const { token } = await createConsentedSession(h);
      const truncated = images.front.subarray(0, Math.floor(images.front.length / 3));
      const body = await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(truncated) }),
        422,
        'unprocessable_image',
      );
      assert.equal(body['param'], 'image');
      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      assert.equal(view['steps'][1].attempts_remaining, 3);
    });

    it('answers 413 for a 20 MB upload', async () => {
      const { token } = await createConsentedSession(h);
      const huge = new Uint8Array(20 * 1024 * 1024);
      huge.set([0xff, 0xd8, 0xff, 0xe0]);
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(huge) }),
        413,
        'payload_too_large',
      );
    });

    it('validates the form fields of an upload', async () => {
      const { token } = await createConsentedSession(h);
      const cases: [Record<string, string>, string, string][] = [
        [{ document_type: 'library_card' }, 'invalid_parameter', 'document_type'],
        [{ step: 'liveness' }, 'invalid_parameter', 'step'],
        [{ step: 'proof_of_address', document_type: 'utility_bill' }, 'invalid_parameter', 'step'],
        [{ issuing_country: 'XXX' }, 'invalid_parameter', 'issuing_country'],
        [{ document_type: 'passport', side: 'back' }, 'invalid_parameter', 'side'],
        [{ side: 'top' }, 'invalid_parameter', 'side'],
        // A type of another step, and fields left empty as an unfilled input sends them.
        [{ document_type: 'utility_bill' }, 'invalid_parameter', 'document_type'],
        [{ document_type: '' }, 'missing_parameter', 'document_type'],
        [{ issuing_country: '' }, 'missing_parameter', 'issuing_country'],
        [{ step: '' }, 'missing_parameter', 'step'],
      ];
      for (const [fields, code, param] of cases) {
        const body = await problem(
          await verifyCall(h, 'POST', '/v1/verify/documents', {
            token,
            form: documentForm(images.front, fields),
          }),
          400,
          code,
        );
        assert.equal(body['param'], param, JSON.stringify(fields));
      }
      const extra = documentForm(images.front);
      extra.set('first_name', 'Anna');
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: extra }),
        400,
        'unknown_parameter',
      );
      const twice = documentForm(images.front);
      twice.append('step', 'proof_of_address');
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: twice }),
        400,
        'invalid_parameter',
      );
      const noImage = documentForm(images.front);
      noImage.delete('image');
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: noImage }),
        400,
        'missing_parameter',
      );
    });

    it('refuses the 13th upload of a session with 409 upload_limit_reached', async () => {
      const { token } = await createConsentedSession(h);
      for (let i = 0; i < 12; i++) {
        const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(images.front),
        });
        assert.equal(response.status, 201, `upload ${i + 1}`);
      }
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(images.back) }),
        409,
        'upload_limit_reached',
      );
    });

    it('keeps the session collecting through photos with blocking issues: they cost no attempt', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const tiny = new Uint8Array(
        await (await import('sharp')).default(images.front).resize(400).jpeg().toBuffer(),
      );
      const statuses: [string, number][] = [];
      for (let i = 0; i < 3; i++) {
        const body = await json(
          await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(tiny) }),
        );
        assert.deepEqual(body['quality']['issues'], ['too_small']);
        statuses.push([body['session_status'], body['attempts_remaining']]);
      }
      assert.deepEqual(statuses, [
        ['collecting', 3],
        ['collecting', 3],
        ['collecting', 3],
      ]);
      const tenantView = await json(
        await h.call('GET', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(tenantView['status'], 'collecting');
      assert.equal(tenantView['last_error'], null);
    });

    it('refuses impossible dates and malformed document numbers in the details', async () => {
      const { token } = await createConsentedSession(h);
      const cases: [Record<string, unknown>, string][] = [
        [{ date_of_birth: '1990-02-30' }, 'date_of_birth'],
        [{ date_of_birth: '12/08/1974' }, 'date_of_birth'],
        [{ date_of_birth: '2999-01-01' }, 'date_of_birth'],
        [{ expiry_date: '2031-13-01' }, 'expiry_date'],
        [{ document_number: 'AB' }, 'document_number'],
        [{ document_number: 'L898902C3;drop' }, 'document_number'],
        [{ nationality: 'Germany' }, 'nationality'],
        [{ first_name: '' }, 'first_name'],
        [{ last_name: 'R2D2' }, 'last_name'],
      ];
      for (const [change, param] of cases) {
        const body = await problem(
          await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: { ...ANNA, ...change } }),
          400,
          'invalid_parameter',
        );
        assert.equal(body['param'], param, JSON.stringify(change));
      }
      const missing: Record<string, unknown> = { ...ANNA };
      delete missing['expiry_date'];
      await problem(
        await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: missing }),
        400,
        'missing_parameter',
      );
      await problem(
        await verifyCall(h, 'PUT', '/v1/verify/details', {
          token,
          body: { ...ANNA, step: 'business_details' },
        }),
        400,
        'missing_parameter',
      );
    });

    it('refuses an MRZ with a wrong check digit, and text that is no MRZ', async () => {
      const { token } = await createConsentedSession(h);
      const wrongDigit = annaMrz().replace('7408122F', '7408121F');
      const body = await problem(
        await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: { ...ANNA, mrz: wrongDigit } }),
        400,
        'invalid_parameter',
      );
      assert.equal(body['param'], 'mrz');
      await problem(
        await verifyCall(h, 'PUT', '/v1/verify/details', {
          token,
          body: { ...ANNA, mrz: 'ANNA ERIKSSON 1974' },
        }),
        400,
        'invalid_parameter',
      );
    });

    it('keeps an MRZ that contradicts the details, says so to the end-user, and hands both to the review', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const otherPerson = mrzTd3({
        surname: 'SMITH',
        given: 'JOHN',
        number: 'L898902C3',
        birth: '800101',
        expiry: '340415',
      });
      const response = await verifyCall(h, 'PUT', '/v1/verify/details', {
        token,
        body: { ...ANNA, mrz: otherPerson },
      });
      assert.equal(response.status, 200);
      const body = await json(response);
      assert.deepEqual(body['mrz'], { check_digits_valid: true, matches_details: false });
      assert.equal(typeof body['user_message'], 'string');
      assert.ok(!JSON.stringify(body).includes('SMITH'), 'no MRZ value is echoed');
      const row = (await findSession(
        h.deps.db,
        { tenantId: h.tenant.tenantId, environment: 'sandbox' },
        sessionId,
      )) as SessionRow;
      const evidence = (await collectReviewEvidence(h.deps.db, h.deps, row)).id_document;
      assert.ok(evidence?.details && evidence.mrz);
      assert.deepEqual(contradictedFields(evidence.details, evidence.mrz), [
        'last_name',
        'first_name',
        'date_of_birth',
      ]);
    });

    it('answers a liveness attempt after the 2-minute challenge lifetime with retry', async () => {
      const { token } = await createConsentedSession(h);
      const { challenge_id: challengeId } = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }),
      );
      h.clock.advance(120_001);
      const body = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness', {
          token,
          form: framesForm(challengeId, images.frames),
        }),
      );
      assert.equal(body['status'], 'retry');
      assert.equal(body['attempts_remaining'], 2);
      assert.equal(body['reason'], 'challenge_expired');
      assert.equal(typeof body['user_message'], 'string');
    });

    it('answers retry for repeated frames and for a wrong number of frames, then rejects after the third', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const attempts: (readonly Uint8Array[])[] = [
        [images.frames[0]!, images.frames[1]!, images.frames[0]!],
        images.frames.slice(0, 2),
        [...images.frames, images.frames[0]!],
      ];
      const verdicts: [string, string, number, string][] = [];
      for (const frames of attempts) {
        const { challenge_id: challengeId } = await json(
          await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }),
        );
        const body = await json(
          await verifyCall(h, 'POST', '/v1/verify/liveness', {
            token,
            form: framesForm(challengeId, frames),
          }),
        );
        verdicts.push([body['status'], body['reason'], body['attempts_remaining'], body['session_status']]);
      }
      assert.deepEqual(verdicts, [
        ['retry', 'frames_repeated', 2, 'collecting'],
        ['retry', 'frame_count_mismatch', 1, 'collecting'],
        ['retry', 'frame_count_mismatch', 0, 'rejected'],
      ]);
      const tenantView = await json(
        await h.call('GET', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(tenantView['last_error'].code, 'attempts_exhausted');
    });

    it('answers retry for a frame that is not an image', async () => {
      const { token } = await createConsentedSession(h);
      const { challenge_id: challengeId } = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }),
      );
      const junk = new TextEncoder().encode('not a picture');
      const body = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness', {
          token,
          form: framesForm(challengeId, [images.frames[0]!, junk, images.frames[2]!]),
        }),
      );
      assert.equal(body['status'], 'retry');
      assert.equal(body['reason'], 'frame_undecodable');
    });

    it('answers a challenge once: a second answer is 409, an unknown challenge 404', async () => {
      const { token } = await createConsentedSession(h);
      const { challenge_id: challengeId } = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }),
      );
      const first = await verifyCall(h, 'POST', '/v1/verify/liveness', {
        token,
        form: framesForm(challengeId, [images.frames[0]!, images.frames[0]!, images.frames[0]!]),
      });
      assert.equal((await json(first))['status'], 'retry');
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/liveness', {
          token,
          form: framesForm(challengeId, images.frames),
        }),
        409,
        'invalid_state_transition',
      );
      await problem(
        await verifyCall(h, 'POST', '/v1/verify/liveness', {
          token,
          form: framesForm('lvc_unknown', images.frames),
        }),
        404,
        'resource_missing',
      );
    });

    it('validates the form of a liveness answer with its documented schema, before any attempt is spent', async () => {
      const { token } = await createConsentedSession(h);
      const { challenge_id: challengeId } = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }),
      );
      const withText = framesForm(challengeId, images.frames.slice(0, 2));
      withText.append('frames', 'not a file');
      const emptyId = framesForm(challengeId, images.frames);
      emptyId.set('challenge_id', '');
      const extra = framesForm(challengeId, images.frames);
      extra.set('selfie', 'yes');
      const cases: [FormData, string, string][] = [
        [framesForm(challengeId, []), 'missing_parameter', 'frames'],
        [withText, 'invalid_parameter', 'frames'],
        [emptyId, 'missing_parameter', 'challenge_id'],
        [extra, 'unknown_parameter', 'selfie'],
      ];
      for (const [form, code, param] of cases) {
        const body = await problem(
          await verifyCall(h, 'POST', '/v1/verify/liveness', { token, form }),
          400,
          code,
        );
        assert.equal(body['param'], param);
      }
      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      const liveness = view['steps'].find((step: { step: string }) => step.step === 'liveness');
      assert.equal(liveness.attempts_remaining, 3);
    });

    it('answers 409 steps_incomplete to complete before every step is done, naming them', async () => {
      const { token } = await createConsentedSession(h);
      const body = await problem(
        await verifyCall(h, 'POST', '/v1/verify/complete', { token }),
        409,
        'steps_incomplete',
      );
      assert.deepEqual(body['missing_steps'], ['id_document', 'liveness']);
    });

    it('answers 404 for an upload id of another session, and for a session of another tenant', async () => {
      const mine = await createConsentedSession(h);
      const theirs = await createConsentedSession(h);
      const upload = await json(
        await verifyCall(h, 'POST', '/v1/verify/documents', {
          token: theirs.token,
          form: documentForm(images.front),
        }),
      );
      await problem(
        await h.call('GET', `/v1/sessions/${mine.sessionId}/evidence/${upload['upload_id']}`, {
          key: h.tenant.sandboxKey,
        }),
        404,
        'resource_missing',
      );
      await problem(
        await h.call('GET', `/v1/sessions/${theirs.sessionId}/evidence/${upload['upload_id']}`, {
          key: h.other.sandboxKey,
        }),
        404,
        'resource_missing',
      );
      await problem(
        await h.call('GET', `/v1/sessions/${theirs.sessionId}/evidence`, { key: h.tenant.productionKey }),
        404,
        'resource_missing',
      );
    });

    it('keeps the reviewer endpoints to credentials with sessions:review', async () => {
      const { sessionId } = await createConsentedSession(h);
      await problem(
        await h.call('GET', `/v1/sessions/${sessionId}/evidence`),
        401,
        'authentication_required',
      );
      const withVerifyToken = await h.app.request(`${TEST_BASE_URL}/v1/sessions/${sessionId}/evidence`, {
        headers: { 'x-verify-token': (await createVerifySession(h)).token },
      });
      assert.equal(withVerifyToken.status, 401);
    });

    it('counts the day-long default lifetime from creation', async () => {
      const { token } = await createVerifySession(h);
      h.clock.advance(DAY_MS - 1000);
      assert.equal((await verifyCall(h, 'GET', '/v1/verify/session', { token })).status, 200);
      h.clock.advance(2000);
      await problem(await verifyCall(h, 'GET', '/v1/verify/session', { token }), 410, 'session_expired');
    });
  });
}
