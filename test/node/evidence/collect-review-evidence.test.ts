import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectReviewEvidence } from '../../../server/features/evidence/collect-review-evidence.ts';
import { deleteSessionEvidence } from '../../../server/features/evidence/delete-session-evidence.ts';
import {
  documentNumberIndex,
  evidenceCipherContext,
  imageDigestIndex,
} from '../../../server/features/evidence/evidence-keys.ts';
import {
  insertLivenessChallenge,
  answerLivenessChallenge,
} from '../../../server/store/liveness-challenges.ts';
import { findSession, type SessionRow } from '../../../server/store/sessions.ts';
import { insertUpload, type UploadRow } from '../../../server/store/uploads.ts';
import { upsertVerifyConsent } from '../../../server/store/verify-consents.ts';
import { upsertVerifyDetails } from '../../../server/store/verify-details.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

const details = {
  first_name: 'Anna Maria',
  last_name: 'Eriksson',
  date_of_birth: '1974-08-12',
  nationality: 'UTO',
  document_number: 'L898902C3',
  expiry_date: '2035-04-15',
};
const mrz = {
  first_name: 'ANNA MARIA',
  last_name: 'ERIKSSON',
  date_of_birth: '1974-08-12',
  document_number: 'L898902C3',
  expiry_date: '2035-04-15',
  check_digits_valid: true,
};

for (const engine of testEngines()) {
  describe(`collectReviewEvidence (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    async function newSession(reference?: string): Promise<SessionRow> {
      const created = await json(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          body: { country: 'DEU', flow: 'user', tier: 'tier2', external_user_reference: reference },
        }),
      );
      const scope = { tenantId: h.tenant.tenantId, environment: 'sandbox' as const };
      return (await findSession(h.deps.db, scope, created['session_id'])) as SessionRow;
    }

    async function upload(session: SessionRow, bytes: Uint8Array, changes: Partial<UploadRow> = {}) {
      const id = h.deps.ids('upl');
      await insertUpload(h.deps.db, {
        id,
        tenant_id: session.tenant_id,
        environment: session.environment,
        session_id: session.id,
        kind: 'document',
        step: 'id_document',
        document_type: 'id_card',
        side: 'front',
        issuing_country_enc: null,
        liveness_challenge_id: null,
        frame_index: null,
        content_type: 'image/jpeg',
        byte_size: bytes.length,
        width: 1600,
        height: 1200,
        quality: { ok: true, issues: [], sharpness: 1500, glare_ratio: 0, brightness: 140 },
        sha256_index: await imageDigestIndex(h.deps.cipher, bytes),
        blob_key: `${session.tenant_id}/${session.environment}/${session.id}/${id}`,
        created_at: h.clock.now(),
        ...changes,
      });
      await h.blobs.put(`${session.tenant_id}/${session.environment}/${session.id}/${id}`, bytes);
    }

    async function confirm(session: SessionRow, typed = details) {
      await upsertVerifyDetails(
        h.deps.db,
        {
          session_id: session.id,
          step: 'id_document',
          tenant_id: session.tenant_id,
          environment: session.environment,
          details_enc: await h.deps.cipher.encryptJson(
            typed,
            evidenceCipherContext.details(session.id, 'id_document'),
          ),
          mrz_enc: await h.deps.cipher.encryptJson(
            { text: 'MRZ', parsed: mrz },
            evidenceCipherContext.mrz(session.id),
          ),
          document_number_index: await documentNumberIndex(h.deps.cipher, typed.document_number),
        },
        h.clock.now(),
      );
    }

    it('returns only duplicates (both false) for a session where nothing was collected', async () => {
      const session = await newSession('fresh-user');
      assert.deepEqual(await collectReviewEvidence(h.deps.db, h.deps, session), {
        duplicates: { document_number_used_by_other_reference: false, image_reused_in_other_session: false },
      });
    });

    it('returns consent, both document sides with quality, decrypted details, MRZ and liveness', async () => {
      const session = await newSession('user-1');
      await upsertVerifyConsent(h.deps.db, {
        session_id: session.id,
        tenant_id: session.tenant_id,
        environment: session.environment,
        accepted: true,
        consent_version: '2025-01',
        locale: 'en',
        ip_enc: null,
        user_agent_enc: null,
        recorded_at: h.clock.now(),
      });
      await upload(session, new Uint8Array([1, 2, 3]));
      await upload(session, new Uint8Array([4, 5, 6]), {
        side: 'back',
        quality: { ok: false, issues: ['blurry'], sharpness: 50, glare_ratio: 0, brightness: 140 },
      });
      await confirm(session);
      const challengeId = `lvc_${session.id}`;
      await insertLivenessChallenge(h.deps.db, {
        id: challengeId,
        tenant_id: session.tenant_id,
        environment: session.environment,
        session_id: session.id,
        actions: ['smile', 'blink', 'look_up'],
        expires_at: new Date(h.clock.now().getTime() + 120_000),
        created_at: h.clock.now(),
      });
      await answerLivenessChallenge(h.deps.db, challengeId, 'accepted', null, h.clock.now());

      assert.deepEqual(await collectReviewEvidence(h.deps.db, h.deps, session), {
        consent: { accepted: true },
        id_document: {
          document_type: 'id_card',
          images: [
            { side: 'front', quality: { ok: true, issues: [] } },
            { side: 'back', quality: { ok: false, issues: ['blurry'] } },
          ],
          details: {
            first_name: 'Anna Maria',
            last_name: 'Eriksson',
            date_of_birth: '1974-08-12',
            document_number: 'L898902C3',
            expiry_date: '2035-04-15',
            nationality: 'UTO',
          },
          mrz,
        },
        liveness: { accepted: true },
        duplicates: { document_number_used_by_other_reference: false, image_reused_in_other_session: false },
      });
    });

    it('passes on the issuing country of the latest upload of the reviewed document, decrypted', async () => {
      const session = await newSession('issuing-country');
      const encrypted = async (uploadId: string, country: string) =>
        h.deps.cipher.encrypt(country, evidenceCipherContext.issuingCountry(uploadId));
      const firstId = h.deps.ids('upl');
      await upload(session, new Uint8Array([7, 1, 1]), {
        id: firstId,
        issuing_country_enc: await encrypted(firstId, 'FRA'),
      });
      const latestId = h.deps.ids('upl');
      await upload(session, new Uint8Array([7, 1, 2]), {
        id: latestId,
        side: 'back',
        issuing_country_enc: await encrypted(latestId, 'AUT'),
      });
      await confirm(session);
      const evidence = await collectReviewEvidence(h.deps.db, h.deps, session);
      assert.equal(evidence.id_document?.issuing_country, 'AUT');
      assert.equal(evidence.id_document?.details?.nationality, 'UTO');
    });

    it('flags the same document number under another user reference, not under the same one', async () => {
      const first = await newSession('owner-a');
      await confirm(first, { ...details, document_number: 'X1234567' });
      const sameUser = await newSession('owner-a');
      await confirm(sameUser, { ...details, document_number: 'x-123 4567' });
      const beforeOther = await collectReviewEvidence(h.deps.db, h.deps, first);
      assert.equal(beforeOther.duplicates?.document_number_used_by_other_reference, false, 'same user twice');
      const otherUser = await newSession('owner-b');
      await confirm(otherUser, { ...details, document_number: 'X1234567' });

      const ofSameUser = await collectReviewEvidence(h.deps.db, h.deps, sameUser);
      assert.equal(ofSameUser.duplicates?.document_number_used_by_other_reference, true, 'owner-b holds it');
      const firstOnly = await newSession('owner-c');
      await confirm(firstOnly, { ...details, document_number: 'UNIQUE999' });
      const unique = await collectReviewEvidence(h.deps.db, h.deps, firstOnly);
      assert.equal(unique.duplicates?.document_number_used_by_other_reference, false);
    });

    it('does not count sessions of another tenant or environment as duplicates', async () => {
      const mine = await newSession('tenant-scope');
      await confirm(mine, { ...details, document_number: 'SCOPED42' });
      await upload(mine, new Uint8Array([42, 42, 42]));
      const created = await json(
        await h.call('POST', '/v1/sessions', {
          key: h.other.sandboxKey,
          body: { country: 'DEU', flow: 'user', tier: 'tier1', external_user_reference: 'someone-else' },
        }),
      );
      const theirs = (await findSession(
        h.deps.db,
        { tenantId: h.other.tenantId, environment: 'sandbox' },
        created['session_id'],
      )) as SessionRow;
      await confirm(theirs, { ...details, document_number: 'SCOPED42' });
      await upload(theirs, new Uint8Array([42, 42, 42]));
      assert.deepEqual((await collectReviewEvidence(h.deps.db, h.deps, mine)).duplicates, {
        document_number_used_by_other_reference: false,
        image_reused_in_other_session: false,
      });
    });

    it('flags image bytes that were uploaded in another session of the tenant', async () => {
      const bytes = new Uint8Array([9, 8, 7, 6]);
      const first = await newSession('image-a');
      await upload(first, bytes);
      const second = await newSession('image-a');
      await upload(second, bytes);
      const evidence = await collectReviewEvidence(h.deps.db, h.deps, second);
      assert.equal(evidence.duplicates?.image_reused_in_other_session, true);
    });

    it('deletes a session’s evidence rows and blobs for retention, and a second run is harmless', async () => {
      const session = await newSession('retention');
      await upload(session, new Uint8Array([5, 5, 5]));
      await confirm(session);
      const keysBefore = [...h.blobs.entries()].filter(([key]) => key.includes(session.id)).length;
      assert.equal(keysBefore, 1);
      assert.equal(await deleteSessionEvidence(h.deps.db, h.deps, session.id), 1);
      assert.equal([...h.blobs.entries()].filter(([key]) => key.includes(session.id)).length, 0);
      assert.deepEqual(await collectReviewEvidence(h.deps.db, h.deps, session), {
        duplicates: { document_number_used_by_other_reference: false, image_reused_in_other_session: false },
      });
      assert.equal(await deleteSessionEvidence(h.deps.db, h.deps, session.id), 0);
    });
  });
}
