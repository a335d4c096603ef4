import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectReviewEvidence } from '../../../server/features/evidence/collect-review-evidence.ts';
import { findSession, type SessionRow } from '../../../server/store/sessions.ts';
import { transformJpeg } from '../evidence/synthetic-images.ts';
import { createHarness, json, TEST_VERIFY_BASE_URL, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  ANNA,
  annaMrz,
  createVerifySession,
  documentForm,
  framesForm,
  makeImages,
  verifyCall,
} from './verify-support.ts';

for (const engine of testEngines()) {
  describe(`end-user endpoints, happy paths (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    after(() => h.close());

    it('walks a tier2 session from its link to processing: session, consent, documents, details, liveness, complete', async () => {
      const { sessionId, token } = await createVerifySession(h, { external_user_reference: 'anna-1' });

      const view = await verifyCall(h, 'GET', '/v1/verify/session', { token });
      assert.equal(view.status, 200);
      assert.equal(view.headers.get('cache-control'), 'no-store');
      const viewed = await json(view);
      assert.equal(viewed['status'], 'collecting', 'the first read starts the session');
      assert.equal(viewed['sandbox'], true);
      assert.equal(viewed['tenant'].name, 'Tenant A');
      assert.deepEqual(viewed['required_steps'], ['consent', 'id_document', 'liveness']);
      assert.deepEqual(Object.keys(viewed['accepted_document_types']), ['id_document']);
      assert.equal(viewed['external_user_reference'], undefined, 'no tenant data for the end-user');
      assert.equal(viewed['metadata'], undefined);

      const consent = await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: '2025-01', locale: 'de-CH' },
        headers: { 'user-agent': 'Mozilla/5.0 (test)' },
      });
      assert.equal(consent.status, 200);
      assert.equal((await json(consent))['session_status'], 'collecting');

      const front = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(images.front),
      });
      assert.equal(front.status, 201);
      const frontBody = await json(front);
      assert.match(frontBody['upload_id'], /^upl_/);
      assert.deepEqual(frontBody['quality'], { ok: true, issues: [] });
      assert.equal(frontBody['step_status'], 'pending', 'the back and the details are still missing');
      assert.equal(frontBody['attempts_remaining'], 3);

      const back = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(images.back, { side: 'back' }),
      });
      assert.equal(back.status, 201);
      assert.equal((await json(back))['step_status'], 'pending');

      const details = await verifyCall(h, 'PUT', '/v1/verify/details', {
        token,
        body: { ...ANNA, mrz: annaMrz() },
      });
      assert.equal(details.status, 200);
      assert.deepEqual(await json(details), {
        object: 'verify_details',
        step: 'id_document',
        step_status: 'completed',
        mrz: { check_digits_valid: true, matches_details: true },
      });

      const challenge = await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token });
      assert.equal(challenge.status, 201);
      const { challenge_id: challengeId, actions, expires_at: expiresAt } = await json(challenge);
      assert.equal(actions.length, 3);
      assert.equal(new Set(actions).size, 3);
      assert.equal(Date.parse(expiresAt) - h.clock.now().getTime(), 120_000);

      const liveness = await verifyCall(h, 'POST', '/v1/verify/liveness', {
        token,
        form: framesForm(challengeId, images.frames),
      });
      assert.equal(liveness.status, 200);
      const livenessBody = await json(liveness);
      assert.equal(livenessBody['status'], 'accepted');
      assert.equal(livenessBody['attempts_remaining'], 3);

      const complete = await verifyCall(h, 'POST', '/v1/verify/complete', { token });
      assert.equal(complete.status, 200);
      assert.equal((await json(complete))['status'], 'processing');
      const again = await verifyCall(h, 'POST', '/v1/verify/complete', { token });
      assert.equal(again.status, 200, 'completing twice is harmless');

      const tenantView = await json(
        await h.call('GET', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey }),
      );
      assert.deepEqual(
        tenantView['steps'].map((step: { status: string }) => step.status),
        ['completed', 'completed', 'completed'],
      );

      const row = (await findSession(
        h.deps.db,
        { tenantId: h.tenant.tenantId, environment: 'sandbox' },
        sessionId,
      )) as SessionRow;
      const evidence = await collectReviewEvidence(h.deps.db, h.deps, row);
      assert.deepEqual(evidence.consent, { accepted: true });
      assert.equal(evidence.id_document?.images.length, 2);
      assert.equal(evidence.id_document?.details?.document_number, 'L898902C3');
      assert.equal(evidence.id_document?.mrz?.check_digits_valid, true);
      assert.deepEqual(evidence.liveness, { accepted: true });
    });

    it('reports quality issues at upload so the widget can ask for a retake', async () => {
      const { token } = await createVerifySession(h);
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: 'v1' },
      });
      const cases: [string, Uint8Array, string[]][] = [
        ['blurred', await transformJpeg(images.front, (image) => image.blur(6)), ['blurry']],
        ['dark', await transformJpeg(images.front, (image) => image.linear(0.2, 0)), ['too_dark']],
      ];
      for (const [name, image, issues] of cases) {
        const response = await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(image),
        });
        assert.equal(response.status, 201, name);
        const body = await json(response);
        assert.deepEqual(body['quality'], { ok: false, issues }, name);
        assert.equal(body['attempts_remaining'], 3, `${name} costs no attempt: it was never judged`);
      }
    });

    it('accepts a passport with its front only, and business details for a business session', async () => {
      const { token } = await createVerifySession(h, { flow: 'business', tier: 'tier1' });
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: 'v1' },
      });
      const passport = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(images.front, { document_type: 'passport' }),
      });
      assert.equal(passport.status, 201);
      const details = await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: ANNA });
      assert.equal((await json(details))['step_status'], 'completed', 'front of a passport + details');
      const business = await verifyCall(h, 'PUT', '/v1/verify/details', {
        token,
        body: {
          step: 'business_details',
          legal_name: 'Acme GmbH',
          registration_number: 'HRB 12345',
          jurisdiction: 'DEU',
        },
      });
      assert.equal(business.status, 200);
      assert.equal((await json(business))['step_status'], 'completed');
      const certificate = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(images.back, {
          step: 'business_document',
          document_type: 'registration_certificate',
        }),
      });
      assert.equal((await json(certificate))['step_status'], 'completed');
      const complete = await verifyCall(h, 'POST', '/v1/verify/complete', { token });
      assert.equal(complete.status, 200);
    });

    it('lets a sandbox session name its forced outcome at the end; production and unknown fields are refused', async () => {
      const { sessionId, token } = await createVerifySession(h, { tier: 'tier1' });
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: 'v1' },
      });
      await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(images.front, { document_type: 'passport' }),
      });
      await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: ANNA });
      const unknown = await verifyCall(h, 'POST', '/v1/verify/complete', {
        token,
        body: { sandbox: { outcome: 'rejected', extra: 1 } },
      });
      assert.equal(unknown.status, 400);
      const complete = await verifyCall(h, 'POST', '/v1/verify/complete', {
        token,
        body: { sandbox: { outcome: 'rejected' } },
      });
      assert.equal(complete.status, 200, await complete.clone().text());
      assert.equal((await json(complete))['status'], 'processing');
      const row = (await findSession(
        h.deps.db,
        { tenantId: h.tenant.tenantId, environment: 'sandbox' },
        sessionId,
      )) as SessionRow;
      assert.deepEqual(row.sandbox, { outcome: 'rejected' });

      const production = await createVerifySession(h, { tier: 'tier1' }, { key: h.tenant.productionKey });
      const refused = await verifyCall(h, 'POST', '/v1/verify/complete', {
        token: production.token,
        body: { sandbox: { outcome: 'approved' } },
      });
      assert.equal(refused.status, 400);
      assert.equal((await json(refused))['code'], 'sandbox_parameter_in_production');
    });

    it('records refused consent and cancels the session', async () => {
      const { sessionId, token } = await createVerifySession(h);
      const refused = await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: false, consent_version: 'v1' },
      });
      assert.equal(refused.status, 200);
      assert.equal((await json(refused))['session_status'], 'cancelled');
      const tenantView = await json(
        await h.call('GET', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(tenantView['status'], 'cancelled');
      const view = await verifyCall(h, 'GET', '/v1/verify/session', { token });
      assert.equal(view.status, 200, 'a finished session stays readable for the redirect');
    });

    it('hands off to a phone: the second link reads and writes the same session', async () => {
      const { sessionId, token } = await createVerifySession(h);
      const handoff = await verifyCall(h, 'POST', '/v1/verify/handoff', { token });
      assert.equal(handoff.status, 201);
      const { handoff_url: url, expires_at: expiresAt } = await json(handoff);
      assert.ok(url.startsWith(`${TEST_VERIFY_BASE_URL}/verify/`));
      assert.equal(Date.parse(expiresAt) - h.clock.now().getTime(), 15 * 60 * 1000);
      const phoneToken = url.split('/verify/')[1];
      assert.notEqual(phoneToken, token);
      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token: phoneToken }));
      assert.equal(view['session_id'], sessionId);
      const consent = await verifyCall(h, 'POST', '/v1/verify/consent', {
        token: phoneToken,
        body: { accepted: true, consent_version: 'v1' },
      });
      assert.equal(consent.status, 200);
      const desktop = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      assert.equal(desktop['steps'][0].status, 'completed', 'the desktop sees the phone’s progress');
    });

    it('lets a reviewer list the evidence and download the decrypted image with its type', async () => {
      const { sessionId, token } = await createVerifySession(h);
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: 'v1' },
      });
      const upload = await json(
        await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(images.front) }),
      );
      const accessToken = await h.login();
      const list = await h.call('GET', `/v1/sessions/${sessionId}/evidence`, {
        token: accessToken,
        headers: { 'x-environment': 'sandbox' },
      });
      assert.equal(list.status, 200);
      const listed = await json(list);
      assert.equal(listed['data'].length, 1);
      assert.equal(listed['data'][0].upload_id, upload['upload_id']);
      assert.equal(listed['data'][0].issuing_country, 'DEU');
      assert.equal(listed['data'][0].content_type, 'image/jpeg');
      assert.equal(listed['data'][0].width, 1600);
      const image = await h.call('GET', `/v1/sessions/${sessionId}/evidence/${upload['upload_id']}`, {
        key: h.tenant.sandboxKey,
      });
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/jpeg');
      assert.equal(image.headers.get('cache-control'), 'no-store');
      assert.deepEqual(new Uint8Array(await image.arrayBuffer()), new Uint8Array(images.front));
    });
  });
}
