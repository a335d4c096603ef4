// The automated decision with the real models, end to end at server level: production sessions walked
// through the hosted-page endpoints with the committed fixture photos (a specimen passport, re-rendered
// selfie sequences), the Node vision engine reading the document and judging every liveness frame, the
// review worker deciding. Model-heavy: the engine is loaded once for the whole file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { LivenessAction } from '../../../server/domain/liveness-challenge.ts';
import type { VisionEngine } from '../../../server/features/vision/vision-engine.ts';
import { createNodeVisionEngine } from '../../../server/runtime/node/vision/node-vision-engine.ts';
import { DOCUMENT_FIXTURES_DIR } from '../../fixtures/vision/documents/manifest.ts';

import { loadSelfieManifest, SELFIE_FIXTURES_DIR } from '../../fixtures/vision/selfies/manifest.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { createVerifySession, documentForm, framesForm, verifyCall } from '../verify/verify-support.ts';
import { result, worker } from './pipeline-support.ts';

type Body = Record<string, any>;

const selfies = loadSelfieManifest();

/** The frame of `sequence` that answers `action`, as the end-user's camera would have taken it. */
function frameOf(sequence: string, action: LivenessAction): Uint8Array {
  const frame = selfies.sequences
    .find((entry) => entry.id === sequence)
    ?.frames.find((f) => f.action === action);
  assert.ok(frame, `${sequence} has a ${action} frame`);
  return readFileSync(join(SELFIE_FIXTURES_DIR, frame.file));
}

/**
 * Challenges the astronaut's re-rendered frames can answer: none with an action the manifest lists among
 * the sequence's `known_limits` (what one photo cannot be re-rendered to show convincingly). Challenges
 * are random, so the end-user's side draws new ones (which costs no attempt) until one fits.
 */
function astronautCanAnswer(actions: readonly LivenessAction[]): boolean {
  const limits = selfies.sequences.find((entry) => entry.id === 'genuine-astronaut')?.known_limits ?? {};
  return !actions.some((action) => action in limits);
}

for (const engine of testEngines()) {
  describe(`automated decisions with the real vision models (${engine})`, () => {
    let h: TestHarness;
    let vision: VisionEngine;
    const passport = (who: 'astronaut' | 'camera') =>
      readFileSync(join(DOCUMENT_FIXTURES_DIR, `passport-${who}.jpg`));
    before(async () => {
      h = await createHarness(engine);
      vision = createNodeVisionEngine();
      h.deps.vision = vision;
    });
    after(async () => {
      await vision.close();
      await h.close();
    });

    const key = () => h.tenant.productionKey;

    /** A production tier2 session with consent given and the passport photo uploaded. */
    async function withPassport(document: Uint8Array, reference: string, issuingCountry = 'NLD') {
      const { sessionId, token } = await createVerifySession(
        h,
        { external_user_reference: reference },
        { key: key() },
      );
      const call = (method: string, path: string, options: Parameters<typeof verifyCall>[3] = {}) =>
        verifyCall(h, method, path, { token, ...options });
      const consent = await call('POST', '/v1/verify/consent', {
        body: { accepted: true, consent_version: '2025-01', locale: 'en' },
      });
      assert.equal(consent.status, 200);
      const upload = await call('POST', '/v1/verify/documents', {
        form: documentForm(document, { document_type: 'passport', issuing_country: issuingCountry }),
      });
      assert.equal(upload.status, 201, await upload.clone().text());
      const uploaded = await json(upload);
      assert.equal(uploaded['reading']?.mrz_read, true, 'the passport’s MRZ was read by the server');
      assert.equal(uploaded['reading']?.details_required, false, 'so the end-user types nothing');
      return { sessionId, token, call };
    }

    /**
     * One liveness attempt: a fresh challenge (drawn again until `fits`), each frame taken from
     * `sequence` for its action, re-encoded when `capture` says so (a new session's camera never sends the
     * bytes of an earlier one; identical bytes across sessions are a duplicate-detection finding). Answers
     * the verdict and the stored challenge row.
     */
    async function answerLiveness(
      call: Awaited<ReturnType<typeof withPassport>>['call'],
      sequence: string,
      fits: (actions: readonly LivenessAction[]) => boolean = () => true,
      capture?: { jpegQuality: number },
    ) {
      let challenge: Body = {};
      for (let draw = 0; draw < 60; draw++) {
        challenge = await json(await call('POST', '/v1/verify/liveness/challenge'));
        if (fits(challenge['actions'])) break;
      }
      const actions = challenge['actions'] as LivenessAction[];
      assert.ok(fits(actions), `no fitting challenge in 60 draws: ${actions}`);
      const started = performance.now();
      const response = await call('POST', '/v1/verify/liveness', {
        form: framesForm(
          challenge['challenge_id'],
          await Promise.all(
            actions.map(async (action) => {
              const frame = frameOf(sequence, action);
              // Another capture of the same scene: new bytes, the same picture.
              return capture
                ? new Uint8Array(await sharp(frame).jpeg({ quality: capture.jpegQuality }).toBuffer())
                : frame;
            }),
          ),
        ),
      });
      const elapsedMs = Math.round(performance.now() - started);
      assert.equal(response.status, 200, await response.clone().text());
      const [row] = await h.deps.db.query<Body>(
        'select outcome, retry_reason, judgement from liveness_challenges where id = $1',
        [challenge['challenge_id']],
      );
      console.log(
        `liveness ${sequence} [${actions}] → ${row?.['outcome']} ${row?.['retry_reason'] ?? ''} in ${elapsedMs} ms`,
      );
      return { actions, verdict: await json(response), row: row as Body };
    }

    const checkOf = (outcome: Body, type: string) =>
      outcome['checks'].find((check: { type: string }) => check.type === type);
    const codesOf = (outcome: Body) => outcome['reasons'].map((reason: { code: string }) => reason.code);

    async function decide(sessionId: string, call: Awaited<ReturnType<typeof withPassport>>['call']) {
      assert.equal((await call('POST', '/v1/verify/complete')).status, 200);
      await worker(h).runOnce();
      const outcome = await result(h, key(), sessionId);
      const faceMatch = checkOf(outcome, 'face_match');
      console.log(
        `decision ${outcome['decision']} [${codesOf(outcome)}]; face_match ${faceMatch?.status} score ${faceMatch?.details?.score}`,
      );
      return outcome;
    }

    let approvedIdentityId = '';

    it('approves the astronaut with her own passport and frames, with no person involved', async () => {
      const { sessionId, call } = await withPassport(passport('astronaut'), 'astronaut');
      const { verdict, row } = await answerLiveness(call, 'genuine-astronaut', astronautCanAnswer);
      assert.equal(verdict['status'], 'accepted', JSON.stringify(row['judgement']));
      assert.equal(row['judgement'].accepted, true);

      const outcome = await decide(sessionId, call);
      assert.equal(outcome['decision'], 'approved', JSON.stringify(outcome['checks']));
      assert.equal(outcome['decided_by'], 'automated');
      assert.deepEqual(outcome['reasons'], []);
      const faceMatch = checkOf(outcome, 'face_match');
      assert.equal(faceMatch.status, 'passed');
      assert.equal(faceMatch.details.reference, 'document_portrait');
      assert.equal(faceMatch.details.space, 'dlib-resnet-v1-chip');
      assert.equal(faceMatch.details.engine, 'models');
      assert.equal(faceMatch.details.zone, 'match', JSON.stringify(faceMatch.details));
      assert.ok(
        faceMatch.details.score <= faceMatch.details.match_threshold,
        JSON.stringify(faceMatch.details),
      );
      // Turned frames answer the liveness challenge; the face match compares the frontal ones.
      assert.equal(faceMatch.details.probes, 3);
      assert.ok(faceMatch.details.probes_frontal >= 1, JSON.stringify(faceMatch.details));
      assert.equal(faceMatch.details.probes_compared, faceMatch.details.probes_frontal);
      const liveness = checkOf(outcome, 'liveness');
      assert.equal(liveness.status, 'passed');
      assert.deepEqual(liveness.details.outcomes, ['performed', 'performed', 'performed']);
      assert.equal(liveness.details.passive_antispoofing, 'not_performed');
      const authenticity = checkOf(outcome, 'document_authenticity');
      assert.equal(authenticity.status, 'passed', JSON.stringify(authenticity));
      assert.equal(authenticity.details.forensics, 'not_performed');
      // Check details carry measurements and method names only, never the person's data.
      const shown = JSON.stringify(outcome['checks']);
      for (const personal of ['VAN DIJK', 'MARIA', 'NXR8K4P27', '1978'])
        assert.ok(!shown.includes(personal), personal);

      approvedIdentityId = outcome['identity_id'];
      const [identity] = await h.deps.db.query<Body>(
        'select face_reference_enc, face_reference_space from identities where id = $1',
        [approvedIdentityId],
      );
      assert.equal(typeof identity?.['face_reference_enc'], 'string', 'her best frame is enrolled');
      assert.equal(identity?.['face_reference_space'].name, 'dlib-resnet-v1-chip');
    });

    it('approves her biometric re-verification against the enrolled face', async () => {
      assert.ok(approvedIdentityId, 'needs the approval above');
      const created = await h.call('POST', `/v1/identities/${approvedIdentityId}/reverification-requests`, {
        key: key(),
        body: { reason: 'Login from a new device', mode: 'biometric' },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const request = await json(created);
      const token = String(request['verify_url']).split('/verify/')[1] as string;
      const call = (method: string, path: string, options: Parameters<typeof verifyCall>[3] = {}) =>
        verifyCall(h, method, path, { token, ...options });
      assert.equal(
        (await call('POST', '/v1/verify/consent', { body: { accepted: true, consent_version: '2025-01' } }))
          .status,
        200,
      );
      const { verdict } = await answerLiveness(call, 'genuine-astronaut', astronautCanAnswer, {
        jpegQuality: 88,
      });
      assert.equal(verdict['status'], 'accepted');
      const outcome = await decide(request['session_id'], call);
      assert.equal(outcome['decision'], 'approved', JSON.stringify(outcome['checks']));
      const faceMatch = checkOf(outcome, 'face_match');
      assert.equal(faceMatch.status, 'passed');
      assert.equal(faceMatch.details.reference, 'enrolled_selfie');
    });

    it('rejects her frames presented with the camera man’s passport (face_mismatch)', async () => {
      // A genuine document of someone else (its MRZ checks out), and a live person who is not its holder.
      const { sessionId, call } = await withPassport(passport('camera'), 'camera-man-passport', 'FRA');
      const { verdict } = await answerLiveness(call, 'genuine-astronaut', astronautCanAnswer, {
        jpegQuality: 86,
      });
      assert.equal(verdict['status'], 'accepted', 'she is live; she is just not the passport’s holder');
      const outcome = await decide(sessionId, call);
      assert.equal(outcome['decision'], 'rejected', JSON.stringify(outcome['checks']));
      assert.deepEqual(codesOf(outcome), ['face_mismatch']);
      const faceMatch = checkOf(outcome, 'face_match');
      assert.equal(faceMatch.status, 'failed');
      assert.deepEqual(faceMatch.reason_codes, ['face_mismatch']);
      assert.equal(faceMatch.details.reference, 'document_portrait');
      assert.equal(faceMatch.details.zone, 'mismatch', JSON.stringify(faceMatch.details));
      assert.ok(
        faceMatch.details.score > faceMatch.details.mismatch_threshold,
        JSON.stringify(faceMatch.details),
      );
      assert.equal(faceMatch.details.probes_matched, 0);
    });

    it('sends back the camera man’s frames for her passport: they do not answer the challenge', async () => {
      // His photo is a near profile (about 40° of yaw): what the models make of the re-rendered frames is no
      // face, or a face that does not perform the prompt (the manifest's known limits). Either way the
      // attempt is used and the end-user is told what to do, before any face is compared.
      const { call } = await withPassport(passport('astronaut'), 'camera-man');
      const { verdict, row } = await answerLiveness(
        call,
        'attack-different_person-astronaut',
        (actions) => !actions.includes('look_up'), // the sequence has no look_up frame
      );
      assert.equal(verdict['status'], 'retry');
      assert.equal(verdict['attempts_remaining'], 2);
      assert.equal(row['judgement'].accepted, false);
      assert.ok(['no_face', 'action_not_performed'].includes(row['retry_reason']), row['retry_reason']);
      assert.match(verdict['user_message'], /could not see your face|did not see you/);
    });

    it('sends back a drawn face, and rejects the session once every attempt is used', async () => {
      const { sessionId, call } = await withPassport(passport('astronaut'), 'cartoon-frames');
      for (let attempt = 0; attempt < 3; attempt++) {
        const { verdict, row } = await answerLiveness(call, 'attack-cartoon-astronaut');
        assert.equal(verdict['status'], 'retry');
        assert.equal(row['judgement'].accepted, false);
        // The drawing has no face the detector finds on its "blink" frame, and it does not turn, look up
        // or smile on the others: whichever comes first in the random challenge is the failure.
        assert.ok(['no_face', 'action_not_performed'].includes(row['retry_reason']), row['retry_reason']);
        assert.equal(verdict['attempts_remaining'], 2 - attempt);
      }
      const outcome = await result(h, key(), sessionId);
      assert.equal(outcome['decision'], 'rejected');
      assert.deepEqual(codesOf(outcome), ['attempts_exhausted']);
      const liveness = checkOf(outcome, 'liveness');
      assert.equal(liveness.status, 'failed');
    });

    it('sends back a replayed still: the same photo, or the photo re-shot for every prompt', async () => {
      const { call } = await withPassport(passport('astronaut'), 'replay');
      const still = frameOf('attack-replayed_still-astronaut', 'turn_left');
      const challenge = await json(await call('POST', '/v1/verify/liveness/challenge'));
      const same = await json(
        await call('POST', '/v1/verify/liveness', {
          form: framesForm(challenge['challenge_id'], [still, still, still]),
        }),
      );
      assert.equal(same['status'], 'retry');
      assert.match(same['user_message'], /each movement/);

      // The still re-captured per prompt (moved, re-exposed): different pictures, but nobody moves.
      const { verdict, row } = await answerLiveness(call, 'attack-replayed_still-astronaut');
      assert.equal(verdict['status'], 'retry');
      assert.ok(
        ['frames_repeated', 'action_not_performed'].includes(row['retry_reason']),
        row['retry_reason'],
      );
      if (row['retry_reason'] === 'action_not_performed') {
        assert.match(verdict['user_message'], /^We did not see you /);
        assert.equal(row['judgement'].failure, 'not_performed');
      }
    });
  });
}
