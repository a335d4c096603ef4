import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LivenessAction } from '../../../server/domain/liveness-challenge.ts';
import { findEnrolledReference } from '../../../server/features/evidence/enrolled-reference.ts';
import { UnprocessableImageError } from '../../../server/features/evidence/image-analyzer.ts';
import { collectLivenessEvidence } from '../../../server/features/evidence/liveness-evidence.ts';
import { findSession, type SessionRow } from '../../../server/store/sessions.ts';
import type {
  EmbeddingSpace,
  FaceAnalysis,
  FaceObservation,
  VisionEngine,
} from '../../../server/features/vision/vision-engine.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { createConsentedSession, framesForm, makeImages, verifyCall } from './verify-support.ts';

const SPACE: EmbeddingSpace = { name: 'test-embedder', metric: 'euclidean', threshold: 0.6 };
const PERSON_A = [1, 0, 0, 0];
const PERSON_B = [0, 1, 0, 0];

/** A face clearly performing `action` (or neutral), of person `embedding`, `width` px wide. */
function faceOf(action: LivenessAction | null, embedding = PERSON_A, width = 200): FaceObservation {
  const neutral = {
    yaw: 0,
    pitch: 0,
    roll: 0,
    leftEyeOpen: 0.9,
    rightEyeOpen: 0.9,
    mouthOpen: 0.05,
    smile: 0.05,
  };
  const performed: Record<LivenessAction, Partial<FaceObservation>> = {
    turn_left: { yaw: -28 },
    turn_right: { yaw: 28 },
    look_up: { pitch: -20 },
    smile: { smile: 0.9 },
    blink: { leftEyeOpen: 0.05, rightEyeOpen: 0.05 },
  };
  return {
    box: { x: 200, y: 100, width, height: width },
    score: 0.99,
    ...neutral,
    ...(action ? performed[action] : {}),
    embedding,
  };
}

function analysisOf(faces: FaceObservation[]): FaceAnalysis {
  return {
    width: 640,
    height: 480,
    faces,
    embeddingSpace: SPACE,
    engine: { kind: 'models', models: ['test'] },
  };
}

type Script = (frame: number, action: LivenessAction) => FaceAnalysis | Error;

/** A vision engine whose answer per frame the test scripts; frames are told apart by their bytes. */
function scriptedVision(frames: readonly Uint8Array[]) {
  const indexOf = new Map(
    frames.map((bytes, index) => [createHash('sha256').update(bytes).digest('hex'), index]),
  );
  const state = { calls: 0, script: ((_, action) => analysisOf([faceOf(action)])) as Script };
  const engine: VisionEngine = {
    async analyzeFaces(bytes, options = {}) {
      state.calls += 1;
      assert.equal(options.embeddings, true, 'liveness frames are analysed with embeddings');
      const index = indexOf.get(createHash('sha256').update(bytes).digest('hex'));
      assert.ok(index !== undefined, 'a known frame');
      const answer = state.script(index, options.livenessAction as LivenessAction);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    readDocument: () => Promise.reject(new Error('not used')),
    readText: () => Promise.reject(new Error('not used')),
    close: async () => {},
  };
  return { engine, state };
}

const ACTION_WORDING: Record<LivenessAction, string> = {
  turn_left: 'turn your head to the left',
  turn_right: 'turn your head to the right',
  look_up: 'look up',
  smile: 'smile',
  blink: 'blink',
};

for (const engine of testEngines()) {
  describe(`liveness judged per frame by the face models (${engine})`, () => {
    let h: TestHarness;
    let frames: Uint8Array[];
    let vision: ReturnType<typeof scriptedVision>;
    before(async () => {
      h = await createHarness(engine);
      frames = (await makeImages()).frames;
      vision = scriptedVision(frames);
      h.deps.vision = vision.engine;
    });
    after(() => h.close());

    async function sessionRow(sessionId: string): Promise<SessionRow> {
      const scope = { tenantId: h.tenant.tenantId, environment: 'sandbox' as const };
      return (await findSession(h.deps.db, scope, sessionId)) as SessionRow;
    }

    async function attempt(token: string, send: readonly Uint8Array[] = frames) {
      const challenge = await json(await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }));
      const response = await verifyCall(h, 'POST', '/v1/verify/liveness', {
        token,
        form: framesForm(challenge['challenge_id'], send),
      });
      return { challenge, response, body: response.status === 200 ? await json(response) : null };
    }

    async function challengeRow(id: string) {
      const [row] = await h.deps.db.query<Record<string, any>>(
        'select * from liveness_challenges where id = $1',
        [id],
      );
      return row as Record<string, any>;
    }

    it('accepts one person performing each action, and keeps the frames as face-match probes', async () => {
      vision.state.script = (_, action) => analysisOf([faceOf(action)]);
      const { sessionId, token } = await createConsentedSession(h);
      const { challenge, body } = await attempt(token);
      assert.equal(body?.['status'], 'accepted');
      assert.equal(body?.['attempts_remaining'], 3);
      assert.equal(body?.['reason'], undefined, 'an accepted attempt has no retry reason');
      assert.equal(body?.['user_message'], undefined);

      const stored = await challengeRow(challenge['challenge_id']);
      assert.equal(stored['outcome'], 'accepted');
      assert.equal(stored['judgement'].accepted, true);
      assert.deepEqual(
        stored['judgement'].actions.map((verdict: { action: string; outcome: string }) => [
          verdict.action,
          verdict.outcome,
        ]),
        challenge['actions'].map((action: string) => [action, 'performed']),
      );
      const readings = await h.deps.db.query<Record<string, any>>(
        'select * from liveness_readings where challenge_id = $1 order by frame_index',
        [challenge['challenge_id']],
      );
      assert.equal(readings.length, 3);
      for (const reading of readings) {
        assert.equal(reading['observation'].faces, 1);
        assert.equal(reading['observation'].face_width, 200);
        assert.equal(reading['embedding_space'].name, SPACE.name);
        // Biometric data: only ciphertext in the row, never the numbers.
        assert.equal(typeof reading['embedding_enc'], 'string');
        assert.ok(!reading['embedding_enc'].includes('[1,0,0,0]'));
        assert.equal(JSON.stringify(reading['observation']).includes('embedding'), false);
      }

      const collected = await collectLivenessEvidence(h.deps.db, h.deps, await sessionRow(sessionId));
      assert.equal(collected?.liveness.accepted, true);
      assert.equal(collected?.liveness.judgement?.accepted, true);
      assert.deepEqual(
        collected?.probes?.map((probe) => [probe.faces, probe.face_width, probe.embedding]),
        [
          [1, 200, PERSON_A],
          [1, 200, PERSON_A],
          [1, 200, PERSON_A],
        ],
      );
      assert.deepEqual(collected?.space, SPACE);
      assert.deepEqual(collected?.engine, { kind: 'models', models: ['test'] });
    });

    const failures: [string, Script, string, (actions: LivenessAction[]) => RegExp][] = [
      ['no face', () => analysisOf([]), 'no_face', () => /could not see your face/],
      [
        'more than one person',
        (_, action) => analysisOf([faceOf(action), faceOf(null, PERSON_B, 120)]),
        'several_faces',
        () => /more than one person/,
      ],
      [
        'an action not performed',
        (frame, action) => analysisOf([faceOf(frame === 1 ? null : action)]),
        'action_not_performed',
        (actions) => new RegExp(`did not see you ${ACTION_WORDING[actions[1] as LivenessAction]}\\.`),
      ],
      [
        'the person changing',
        (frame, action) => analysisOf([faceOf(action, frame === 2 ? PERSON_B : PERSON_A)]),
        'face_changed',
        () => /same person must do every movement/,
      ],
    ];
    for (const [what, script, reason, message] of failures) {
      it(`sends the end-user back with a specific message for ${what}, using the attempt`, async () => {
        vision.state.script = script;
        const { sessionId, token } = await createConsentedSession(h);
        const { challenge, body } = await attempt(token);
        assert.equal(body?.['status'], 'retry');
        assert.equal(body?.['attempts_remaining'], 2);
        assert.match(body?.['user_message'], message(challenge['actions']));
        // The code beside the English advice, so the widget can word it in its own language.
        assert.equal(body?.['reason'], reason);
        assert.equal(
          body?.['action'],
          reason === 'action_not_performed' ? challenge['actions'][1] : undefined,
          'the action not seen, only for action_not_performed',
        );
        const stored = await challengeRow(challenge['challenge_id']);
        assert.equal(stored['retry_reason'], reason);
        assert.equal(stored['judgement'].accepted, false);
        const collected = await collectLivenessEvidence(h.deps.db, h.deps, await sessionRow(sessionId));
        assert.equal(collected?.liveness.accepted, false);
        assert.equal(collected?.probes?.length, 3, 'what the models saw is kept for the reviewer');
      });
    }

    it('answers the cheap gates first: repeated frames are a retry before any model runs', async () => {
      const { token } = await createConsentedSession(h);
      const before = vision.state.calls;
      const { challenge, body } = await attempt(token, [frames[0]!, frames[0]!, frames[0]!]);
      assert.equal(body?.['status'], 'retry');
      assert.equal(body?.['reason'], 'frames_repeated');
      assert.equal(body?.['action'], undefined);
      assert.match(body?.['user_message'], /each movement/);
      assert.equal(vision.state.calls, before, 'no model ran');
      const stored = await challengeRow(challenge['challenge_id']);
      assert.equal(stored['retry_reason'], 'frames_repeated');
      assert.equal(stored['judgement'], null);
    });

    it('logs why each attempt was answered: the gate’s reason, or each action’s outcome and measures', async () => {
      const records: Record<string, unknown>[] = [];
      const logger = h.deps.logger;
      h.deps.logger = {
        info: (message, fields) => records.push({ message, ...fields }),
        error: () => {},
      };
      try {
        vision.state.script = (frame, action) => analysisOf([faceOf(frame === 1 ? null : action)]);
        const { sessionId, token } = await createConsentedSession(h);
        await attempt(token, [frames[0]!, frames[0]!, frames[0]!]);
        const { challenge } = await attempt(token);
        const ours = records.filter((record) => record['session_id'] === sessionId);
        assert.deepEqual(ours[0], {
          message: 'liveness sent back',
          session_id: sessionId,
          reason: 'frames_repeated',
        });
        const judged = ours.find((record) => record['message'] === 'liveness judged');
        assert.equal(judged?.['accepted'], false);
        assert.equal(judged?.['failure'], 'not_performed');
        const actions = judged?.['actions'] as Record<string, unknown>[];
        assert.deepEqual(
          actions.map((verdict) => [verdict['action'], verdict['outcome']]),
          challenge['actions'].map((action: string, frame: number) => [
            action,
            frame === 1 ? 'not_performed' : 'performed',
          ]),
        );
        for (const verdict of actions) {
          assert.deepEqual(Object.keys(verdict).sort(), [
            'action',
            'eyes_open',
            'outcome',
            'pitch',
            'smile',
            'yaw',
          ]);
        }
        // Measures of a pose, never the face's embedding or anything of the image.
        assert.equal(JSON.stringify(ours).includes('embedding'), false);
      } finally {
        h.deps.logger = logger;
      }
    });

    it('treats a frame the engine cannot decode as an undecodable frame', async () => {
      vision.state.script = (frame, action) =>
        frame === 0 ? new UnprocessableImageError('undecodable', 'test') : analysisOf([faceOf(action)]);
      const { token } = await createConsentedSession(h);
      const { challenge, body } = await attempt(token);
      assert.equal(body?.['status'], 'retry');
      assert.equal(body?.['reason'], 'frame_undecodable');
      assert.equal((await challengeRow(challenge['challenge_id']))['retry_reason'], 'frame_undecodable');
    });

    it('answers 500 when the engine fails, without using the attempt or storing anything', async () => {
      vision.state.script = () => new Error('model crashed');
      const { sessionId, token } = await createConsentedSession(h);
      const { challenge, response } = await attempt(token);
      assert.equal(response.status, 500);
      assert.equal((await challengeRow(challenge['challenge_id']))['answered_at'], null);
      const uploads = await h.deps.db.query('select 1 from verify_uploads where session_id = $1', [
        sessionId,
      ]);
      assert.equal(uploads.length, 0);
      const session = await sessionRow(sessionId);
      const liveness = session.steps.find((step) => step.step === 'liveness');
      assert.equal(liveness?.attempts_remaining, 3);

      vision.state.script = (_, action) => analysisOf([faceOf(action)]);
      const again = await attempt(token);
      assert.equal(again.body?.['status'], 'accepted', 'a new challenge works once the engine is back');
    });

    it('enrols the most frontal, largest face on approval and gives it to a re-verification', async () => {
      // The smile frame is frontal and large; the turns are larger still but turned away, the others small.
      // Its embedding differs a little (same person), so the test can tell which frame was enrolled.
      const SMILE_EMBEDDING = [0.95, 0.05, 0, 0];
      vision.state.script = (_, action) => {
        const width =
          action === 'smile' ? 240 : action === 'turn_left' || action === 'turn_right' ? 260 : 150;
        return analysisOf([faceOf(action, action === 'smile' ? SMILE_EMBEDDING : PERSON_A, width)]);
      };
      const { sessionId, token } = await createConsentedSession(h, { external_user_reference: 'enrol-1' });
      // New challenges until one asks for a smile (each draw lacks one with p = 0.4; 20 draws: 1e-8).
      let challenge: Record<string, any> = {};
      for (let draw = 0; draw < 20 && !challenge['actions']?.includes('smile'); draw++) {
        challenge = await json(await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }));
      }
      assert.ok(challenge['actions'].includes('smile'));
      const body = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness', {
          token,
          form: framesForm(challenge['challenge_id'], frames),
        }),
      );
      assert.equal(body['status'], 'accepted');
      const approved = await h.call('POST', `/v1/sandbox/sessions/${sessionId}/simulate`, {
        key: h.tenant.sandboxKey,
        body: { action: 'approve' },
      });
      assert.equal(approved.status, 200, await approved.clone().text());
      const outcome = await json(
        await h.call('GET', `/v1/sessions/${sessionId}/result`, { key: h.tenant.sandboxKey }),
      );
      assert.equal(outcome['decision'], 'approved');
      const identityId = outcome['identity_id'];
      const [identity] = await h.deps.db.query<Record<string, any>>(
        'select face_reference_enc, face_reference_space from identities where id = $1',
        [identityId],
      );
      assert.equal(typeof identity?.['face_reference_enc'], 'string');
      assert.deepEqual(identity?.['face_reference_space'], SPACE);

      const created = await h.call('POST', `/v1/identities/${identityId}/reverification-requests`, {
        key: h.tenant.sandboxKey,
        body: { reason: 'New device', mode: 'biometric' },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const reverification = await sessionRow((await json(created))['session_id']);
      const reference = await findEnrolledReference(h.deps.db, h.deps, reverification);
      assert.deepEqual(reference, {
        faces: 1,
        face_width: 240,
        embedding: SMILE_EMBEDDING,
        space: SPACE,
      });
      assert.equal(
        await findEnrolledReference(h.deps.db, h.deps, await sessionRow(sessionId)),
        undefined,
        'only a re-verification compares with the enrolled face',
      );
    });
  });
}
