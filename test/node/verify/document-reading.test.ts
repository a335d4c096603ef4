import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { collectReviewEvidence } from '../../../server/features/evidence/collect-review-evidence.ts';
import { deleteSessionEvidence } from '../../../server/features/evidence/delete-session-evidence.ts';
import type { StoredIdDocumentReading } from '../../../server/features/evidence/document-reading-record.ts';
import { evidenceCipherContext } from '../../../server/features/evidence/evidence-keys.ts';
import { storeLivenessReadings } from '../../../server/features/evidence/liveness-evidence.ts';
import type { IdentityVaultRecord } from '../../../server/features/identities/identity-attributes.ts';
import { identityCipherContext } from '../../../server/features/identities/identity-object.ts';
import {
  answerLivenessChallenge,
  insertLivenessChallenge,
} from '../../../server/store/liveness-challenges.ts';
import { findSession, type SessionRow } from '../../../server/store/sessions.ts';
import { transformJpeg } from '../evidence/synthetic-images.ts';
import {
  documentReading,
  FAKE_ENGINE,
  FAKE_SPACE,
  type FakeVision,
  face,
  faces,
  fakeVision,
  selfieReading,
} from '../support/fake-vision.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  ANNA,
  annaMrz,
  createConsentedSession,
  documentForm,
  makeImages,
  mrzTd3,
  verifyCall,
} from './verify-support.ts';

/** The AAMVA example of `parseAamva`: JANE Q SAMPLE, born 1990-04-01, licence D1234567 of California. */
const AAMVA =
  '@\n\x1e\rANSI 636014090002DL00410060ZC01010010DLDAQD1234567\nDCSSAMPLE\nDACJANE\nDADQ\nDBB04011990\nDBA04012030\nDAJCA\r';

/** Names that fill the MRZ's name zone completely: they may have been cut to fit. */
const CUT_NAMES_MRZ = mrzTd3({
  surname: 'ERIKSSON',
  given: 'ANNA<MARIA<KATHARINA<ELISABET',
  number: 'L898902C3',
  birth: '740812',
  expiry: '340415',
});

for (const engine of testEngines()) {
  describe(`document reading at upload, prefill and review evidence (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    let vision: FakeVision;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    beforeEach(() => {
      vision = fakeVision();
      h.deps.vision = vision;
    });
    after(() => h.close());

    const scope = () => ({ tenantId: h.tenant.tenantId, environment: 'sandbox' as const });
    const sessionRow = async (id: string) => (await findSession(h.deps.db, scope(), id)) as SessionRow;
    const upload = (token: string, image: Uint8Array, fields: Parameters<typeof documentForm>[1] = {}) =>
      verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(image, fields) });
    const readingsOf = (sessionId: string) =>
      h.deps.db.query<{ upload_id: string; reading_enc: string; summary: Record<string, unknown> }>(
        'select * from document_readings where session_id = $1',
        [sessionId],
      );
    const idDocumentStep = async (token: string) => {
      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      return view['steps'].find((step: { step: string }) => step.step === 'id_document');
    };

    it('reads a passport, keeps the reading encrypted, prefills the details and lets the end-user skip typing them', async () => {
      const { sessionId, token } = await createConsentedSession(h, { tier: 'tier1' });
      vision.document = () => documentReading({ mrz: annaMrz() });
      const response = await upload(token, images.front, { document_type: 'passport' });
      assert.equal(response.status, 201);
      const body = await json(response);
      assert.deepEqual(body['reading'], { mrz_read: true, barcode_read: false, details_required: false });
      assert.equal(body['step_status'], 'completed', 'a passport page whose MRZ checks out needs no typing');
      assert.deepEqual(vision.calls, [
        { method: 'readDocument', options: { documentType: 'passport', side: 'front' } },
      ]);

      const rows = await readingsOf(sessionId);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.upload_id, body['upload_id']);
      const stored = JSON.stringify(rows);
      for (const personal of ['ERIKSSON', 'ANNA', 'L898902C3', '740812', '0.22']) {
        assert.ok(!stored.includes(personal), `the reading row holds ${personal} in plaintext`);
      }
      assert.deepEqual(rows[0]?.summary, {
        kind: 'id_document',
        mrz_found: true,
        mrz_valid: true,
        format: 'TD3',
        barcode_found: false,
        barcode_parsed: false,
        portrait_faces: 1,
        portrait_face_width: 180,
        layout: { found: true, aspect_ratio: 1.586, deskew_degrees: 0.5 },
        details_source: 'mrz',
        details_required: false,
        names_uncertain: false,
        engine: FAKE_ENGINE,
      });
      const decrypted = await h.deps.cipher.decryptJson<StoredIdDocumentReading>(
        rows[0]!.reading_enc,
        evidenceCipherContext.documentReading(body['upload_id']),
      );
      assert.equal(decrypted.mrz?.parsed?.lastName, 'ERIKSSON');
      assert.deepEqual(decrypted.portrait.faces[0]?.embedding, [0.11, 0.22, 0.33, 0.44]);

      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      assert.deepEqual(view['prefill'], {
        id_document: {
          source: 'mrz',
          // UTO (the specimens' Utopia) is no ISO country, so no nationality is offered.
          details: {
            first_name: 'ANNA MARIA',
            last_name: 'ERIKSSON',
            date_of_birth: '1974-08-12',
            document_number: 'L898902C3',
            expiry_date: '2034-04-15',
          },
          details_required: false,
        },
      });

      const complete = await verifyCall(h, 'POST', '/v1/verify/complete', { token });
      assert.equal(complete.status, 200, 'submitted without PUT /v1/verify/details');
      assert.equal((await json(complete))['status'], 'processing');
      const finished = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      assert.deepEqual(finished['prefill'], {}, 'nothing personal once the session stopped collecting');

      const evidence = await collectReviewEvidence(h.deps.db, h.deps, await sessionRow(sessionId));
      assert.deepEqual(evidence.id_document?.details, {
        first_name: 'ANNA MARIA',
        last_name: 'ERIKSSON',
        date_of_birth: '1974-08-12',
        document_number: 'L898902C3',
        expiry_date: '2034-04-15',
      });
      assert.deepEqual(evidence.id_document?.mrz, {
        first_name: 'ANNA MARIA',
        last_name: 'ERIKSSON',
        date_of_birth: '1974-08-12',
        document_number: 'L898902C3',
        expiry_date: '2034-04-15',
        check_digits_valid: true,
      });
    });

    it('refuses a selfie uploaded as a passport without spending an attempt or keeping the photo', async () => {
      const { sessionId, token } = await createConsentedSession(h, { tier: 'tier1' });
      vision.document = selfieReading;
      const response = await upload(token, images.front, { document_type: 'passport' });
      assert.equal(response.status, 422);
      const problem = await json(response);
      assert.equal(problem['code'], 'document_type_mismatch');
      assert.equal(problem['param'], 'image');
      assert.equal(problem['seen'], 'selfie');
      assert.match(problem['user_message'], /face.*passport/);
      assert.equal((await idDocumentStep(token))['attempts_remaining'], 3, 'no attempt spent');
      const uploads = await h.deps.db.query('select id from verify_uploads where session_id = $1', [
        sessionId,
      ]);
      assert.equal(uploads.length, 0);
      assert.equal([...h.blobs.entries()].filter(([key]) => key.includes(sessionId)).length, 0);
      assert.equal((await readingsOf(sessionId)).length, 0);

      vision.document = () => documentReading({ mrz: annaMrz() });
      const retake = await upload(token, images.front, { document_type: 'passport' });
      assert.equal(retake.status, 201, 'the real passport is accepted next');
    });

    it('does not read a photo with quality issues, which costs no attempt', async () => {
      const { sessionId, token } = await createConsentedSession(h, { tier: 'tier1' });
      vision.document = selfieReading;
      const dark = await transformJpeg(images.front, (photo) => photo.linear(0.2, 0));
      const response = await upload(token, dark, { document_type: 'passport' });
      assert.equal(response.status, 201);
      const body = await json(response);
      assert.equal(body['quality'].ok, false);
      assert.equal(body['attempts_remaining'], 3);
      assert.equal(body['reading'], undefined);
      assert.deepEqual(vision.calls, []);
      assert.equal((await readingsOf(sessionId)).length, 0);
    });

    it('prefills from a driving licence barcode; typed details stay optional and are compared with it', async () => {
      const { token } = await createConsentedSession(h, { tier: 'tier1' });
      const front = await upload(token, images.front, { document_type: 'driving_licence' });
      assert.deepEqual((await json(front))['reading'], {
        mrz_read: false,
        barcode_read: false,
        details_required: true,
      });
      vision.document = () => documentReading({ barcode: AAMVA, faces: [] });
      const back = await upload(token, images.back, { document_type: 'driving_licence', side: 'back' });
      const backBody = await json(back);
      assert.deepEqual(backBody['reading'], { mrz_read: false, barcode_read: true, details_required: false });
      assert.equal(backBody['step_status'], 'completed');

      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      assert.deepEqual(view['prefill'], {
        id_document: {
          source: 'barcode',
          details: {
            first_name: 'JANE Q',
            last_name: 'SAMPLE',
            date_of_birth: '1990-04-01',
            document_number: 'D1234567',
            expiry_date: '2030-04-01',
          },
          details_required: false,
        },
      });

      const typed = {
        step: 'id_document',
        first_name: 'Jane',
        last_name: 'Sample',
        date_of_birth: '1990-04-01',
        nationality: 'USA',
        document_number: 'D1234567',
        expiry_date: '2030-04-01',
      };
      const mistyped = await verifyCall(h, 'PUT', '/v1/verify/details', {
        token,
        body: { ...typed, date_of_birth: '1990-01-04' },
      });
      assert.equal(mistyped.status, 200);
      const mistypedBody = await json(mistyped);
      assert.deepEqual(mistypedBody['reading'], { source: 'barcode', matches_details: false });
      assert.match(mistypedBody['user_message'], /differ from your document/);
      assert.equal(mistypedBody['step_status'], 'completed');
      const corrected = await json(await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: typed }));
      assert.deepEqual(corrected['reading'], { source: 'barcode', matches_details: true });
      assert.equal(corrected['user_message'], undefined);
    });

    it('still asks for the details when the MRZ names may be cut to fit, or when nothing was read', async () => {
      const cut = await createConsentedSession(h, { tier: 'tier1' });
      vision.document = () => documentReading({ mrz: CUT_NAMES_MRZ });
      const body = await json(await upload(cut.token, images.front, { document_type: 'passport' }));
      assert.deepEqual(body['reading'], { mrz_read: true, barcode_read: false, details_required: true });
      assert.equal(body['step_status'], 'pending');
      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token: cut.token }));
      assert.equal(view['prefill'].id_document.details_required, true);
      assert.equal(view['prefill'].id_document.details.first_name, 'ANNA MARIA KATHARINA ELISABET');
      const refused = await verifyCall(h, 'POST', '/v1/verify/complete', { token: cut.token });
      assert.equal(refused.status, 409);
      const details = await json(
        await verifyCall(h, 'PUT', '/v1/verify/details', {
          token: cut.token,
          body: { ...ANNA, first_name: 'Anna Maria Katharina Elisabeth' },
        }),
      );
      assert.equal(details['step_status'], 'completed');
      assert.deepEqual(details['reading'], { source: 'mrz', matches_details: true });

      const unread = await createConsentedSession(h, { tier: 'tier1' });
      vision.document = () => documentReading({ mrz: annaMrz().replace('L898902C3', 'L898902C8') });
      const misread = await json(await upload(unread.token, images.front, { document_type: 'passport' }));
      assert.deepEqual(misread['reading'], { mrz_read: false, barcode_read: false, details_required: true });
      const unreadView = await json(
        await verifyCall(h, 'GET', '/v1/verify/session', { token: unread.token }),
      );
      assert.deepEqual(unreadView['prefill'], {}, 'a zone whose check digits fail prefills nothing');
    });

    it('answers exactly as before on a host without a document reader', async () => {
      h.deps.vision = undefined;
      const { sessionId, token } = await createConsentedSession(h, { tier: 'tier1' });
      const body = await json(await upload(token, images.front, { document_type: 'passport' }));
      assert.equal(body['reading'], undefined);
      assert.equal(body['step_status'], 'pending', 'the details must be typed');
      assert.deepEqual(
        (await json(await verifyCall(h, 'GET', '/v1/verify/session', { token })))['prefill'],
        {},
      );
      assert.equal((await readingsOf(sessionId)).length, 0);
    });

    it('hands the review the reading, the portrait as face-match reference against the liveness frames, and the typed details', async () => {
      const { sessionId, token } = await createConsentedSession(h, { tier: 'tier2' });
      vision.document = () =>
        documentReading({
          mrz: annaMrz(),
          faces: [face(), face({ box: { x: 1300, y: 200, width: 60, height: 70 } })],
        });
      await upload(token, images.front, { document_type: 'passport' });
      await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: ANNA });
      const session = await sessionRow(sessionId);
      const challengeId = `lvc_${sessionId}`;
      await insertLivenessChallenge(h.deps.db, {
        id: challengeId,
        tenant_id: session.tenant_id,
        environment: session.environment,
        session_id: session.id,
        actions: ['smile', 'blink', 'look_up'],
        expires_at: new Date(h.clock.now().getTime() + 120_000),
        created_at: h.clock.now(),
      });
      const frame = (embedding: number[]) =>
        faces([face({ embedding, box: { x: 400, y: 200, width: 420, height: 500 } })], {
          width: 1280,
          height: 960,
        });
      await storeLivenessReadings(
        h.deps.db,
        h.deps,
        {
          id: challengeId,
          tenant_id: session.tenant_id,
          environment: session.environment,
          session_id: sessionId,
        },
        [frame([0.1, 0.2, 0.3, 0.4]), frame([0.12, 0.2, 0.3, 0.4]), frame([0.1, 0.21, 0.3, 0.4])],
        h.clock.now(),
      );
      await answerLivenessChallenge(h.deps.db, challengeId, 'accepted', null, h.clock.now());

      const evidence = await collectReviewEvidence(h.deps.db, h.deps, session);
      assert.deepEqual(evidence.id_document?.details, {
        first_name: 'Anna Maria',
        last_name: 'Eriksson',
        date_of_birth: '1974-08-12',
        document_number: 'L898902C3',
        expiry_date: '2034-04-15',
        nationality: 'DEU',
      });
      assert.equal(evidence.id_document?.mrz?.check_digits_valid, true, 'the read MRZ when none was typed');
      assert.deepEqual(evidence.id_document?.reading, {
        mrz: {
          first_name: 'ANNA MARIA',
          last_name: 'ERIKSSON',
          date_of_birth: '1974-08-12',
          document_number: 'L898902C3',
          expiry_date: '2034-04-15',
          check_digits_valid: true,
          format: 'TD3',
        },
        mrz_confidence: 0.93,
        barcode: null,
        portrait_faces: 2,
        portrait_face_width: 180,
        layout: { found: true, aspect_ratio: 1.586, deskew_degrees: 0.5 },
        engine: FAKE_ENGINE,
      });
      assert.deepEqual(evidence.liveness, { accepted: true });
      assert.deepEqual(evidence.face_match, {
        reference: {
          source: 'document_portrait',
          faces: 2,
          face_width: 180,
          pose: { yaw: 0, pitch: 0 },
          embedding: [0.11, 0.22, 0.33, 0.44],
        },
        probes: [
          { faces: 1, face_width: 420, pose: { yaw: 0, pitch: 0 }, embedding: [0.1, 0.2, 0.3, 0.4] },
          { faces: 1, face_width: 420, pose: { yaw: 0, pitch: 0 }, embedding: [0.12, 0.2, 0.3, 0.4] },
          { faces: 1, face_width: 420, pose: { yaw: 0, pitch: 0 }, embedding: [0.1, 0.21, 0.3, 0.4] },
        ],
        space: FAKE_SPACE,
        engine: FAKE_ENGINE,
      });
    });

    it('reads a proof of address and gives its text to the review, encrypted at rest', async () => {
      const { sessionId, token } = await createConsentedSession(h, { tier: 'tier3' });
      vision.text = {
        text: 'Stadtwerke Musterstadt\nAnna Eriksson\nHauptstrasse 12\nRechnungsdatum 03.01.2025',
        confidence: 0.87,
        engine: FAKE_ENGINE,
      };
      const response = await upload(token, images.back, {
        step: 'proof_of_address',
        document_type: 'utility_bill',
      });
      assert.equal(response.status, 201);
      assert.equal((await json(response))['reading'], undefined, 'the reading answer is for id_document');
      assert.deepEqual(vision.calls, [{ method: 'readText' }]);
      const rows = await readingsOf(sessionId);
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes('Hauptstrasse'), 'the page text is stored encrypted');
      assert.deepEqual(rows[0]?.summary, {
        kind: 'proof_of_address',
        characters: vision.text.text.length,
        confidence: 0.87,
        engine: FAKE_ENGINE,
      });
      const evidence = await collectReviewEvidence(h.deps.db, h.deps, await sessionRow(sessionId));
      assert.deepEqual(evidence.proof_of_address, {
        document_type: 'utility_bill',
        images: [{ side: 'front', quality: { ok: true, issues: [] } }],
        reading: { text: vision.text.text, confidence: 0.87, engine: FAKE_ENGINE },
      });
    });

    it('vaults the approved identity with the attributes read off the document, saying which source', async () => {
      const { sessionId, token } = await createConsentedSession(h, {
        tier: 'tier1',
        external_user_reference: 'reader-anna',
      });
      vision.document = () => documentReading({ mrz: annaMrz() });
      await upload(token, images.front, { document_type: 'passport' });
      await verifyCall(h, 'PUT', '/v1/verify/details', { token, body: ANNA });
      const approved = await h.call('POST', `/v1/sandbox/sessions/${sessionId}/simulate`, {
        key: h.tenant.sandboxKey,
        body: { action: 'approve' },
      });
      assert.equal(approved.status, 200);
      const identityId = (await json(approved))['identity_id'];
      assert.match(identityId, /^idn_/);
      const [row] = await h.deps.db.query<{ attributes_enc: string }>(
        'select attributes_enc from identities where id = $1',
        [identityId],
      );
      const vault = await h.deps.cipher.decryptJson<IdentityVaultRecord>(
        row!.attributes_enc,
        identityCipherContext.vault(identityId),
      );
      assert.deepEqual(vault.attributes, {
        first_name: 'ANNA MARIA',
        last_name: 'ERIKSSON',
        date_of_birth: '1974-08-12',
        // The MRZ says UTO, which is no ISO country: the typed nationality stays.
        nationality: 'DEU',
        document: {
          type: 'passport',
          issuing_country: 'DEU',
          number: 'L898902C3',
          expiry_date: '2034-04-15',
        },
      });
      assert.deepEqual(vault.attribute_sources, {
        name: 'mrz',
        date_of_birth: 'mrz',
        nationality: 'typed',
        document_number: 'mrz',
        expiry_date: 'mrz',
      });
    });

    it('finds a document number read off another user’s document as a duplicate, though nobody typed it', async () => {
      // A number no other test of this file uses: earlier sessions (and an identity) hold Anna's.
      const mrz = mrzTd3({
        surname: 'DOE',
        given: 'JANE',
        number: 'DUP123456',
        birth: '900401',
        expiry: '330401',
      });
      vision.document = () => documentReading({ mrz });
      const first = await createConsentedSession(h, { tier: 'tier1', external_user_reference: 'dup-a' });
      await upload(first.token, images.front, { document_type: 'passport' });
      const same = await createConsentedSession(h, { tier: 'tier1', external_user_reference: 'dup-a' });
      await upload(same.token, images.back, { document_type: 'passport' });
      const ofSameUser = await collectReviewEvidence(h.deps.db, h.deps, await sessionRow(same.sessionId));
      assert.equal(ofSameUser.duplicates?.document_number_used_by_other_reference, false);
      const other = await createConsentedSession(h, { tier: 'tier1', external_user_reference: 'dup-b' });
      await upload(other.token, images.back, { document_type: 'passport' });
      const ofOther = await collectReviewEvidence(h.deps.db, h.deps, await sessionRow(other.sessionId));
      assert.equal(ofOther.duplicates?.document_number_used_by_other_reference, true);
    });

    it('deletes the readings with the rest of the session’s evidence', async () => {
      const { sessionId, token } = await createConsentedSession(h, { tier: 'tier1' });
      vision.document = () => documentReading({ mrz: annaMrz() });
      await upload(token, images.front, { document_type: 'passport' });
      assert.equal((await readingsOf(sessionId)).length, 1);
      await deleteSessionEvidence(h.deps.db, h.deps, sessionId);
      assert.equal((await readingsOf(sessionId)).length, 0);
    });
  });
}
