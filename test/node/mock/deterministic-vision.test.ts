import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MOCK_FIXTURES } from '../../../mock/index.ts';
import { type MockServer, startMockServer } from '../../../mock/node.ts';
import { judgeDocumentPhoto } from '../../../server/domain/document-photo-kind.ts';
import { LIVENESS_ACTIONS, type LivenessAction } from '../../../server/domain/liveness-challenge.ts';
import { judgeLiveness } from '../../../server/domain/liveness-judgement.ts';
import { UnprocessableImageError } from '../../../server/features/evidence/image-analyzer.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { deterministicVision } from '../../../server/features/vision/deterministic-vision.ts';
import type { FaceAnalysis } from '../../../server/features/vision/vision-engine.ts';
import { blankJpeg, documentJpeg, faceFrameJpeg } from '../evidence/synthetic-images.ts';
import { ANNA, annaMrz } from '../verify/verify-support.ts';

const DETERMINISTIC = { kind: 'deterministic', models: [] };

describe('the deterministic vision stand-in of the mock', () => {
  const vision = deterministicVision(sharpImageAnalyzer());
  let frames: Uint8Array[];
  before(async () => {
    frames = [await faceFrameJpeg(-0.12, 0), await faceFrameJpeg(0.12, 0), await faceFrameJpeg(0, -0.1)];
  });

  it('reports one face per frame, from the image itself, the same for the same bytes', async () => {
    const analysis = await vision.analyzeFaces(frames[0]!);
    assert.deepEqual(analysis.engine, DETERMINISTIC);
    assert.equal(analysis.faces.length, 1);
    assert.equal(analysis.faces[0]?.embedding, undefined, 'no embedding unless asked for');
    assert.deepEqual(await vision.analyzeFaces(frames[0]!), analysis);
    const other = await vision.analyzeFaces(frames[1]!);
    assert.notDeepEqual(other.faces[0]?.box, analysis.faces[0]?.box, 'placed by the content, not fixed');
  });

  it('sees no face on an almost uniform frame (a covered lens, a wall)', async () => {
    const blank = await blankJpeg({ level: 170, noise: 2, width: 640, height: 480 });
    assert.equal((await vision.analyzeFaces(blank)).faces.length, 0);
  });

  it('refuses bytes that are not an image as the real engine does', async () => {
    await assert.rejects(vision.analyzeFaces(new Uint8Array([1, 2, 3])), UnprocessableImageError);
  });

  it('answers every possible challenge in a way the liveness judgement accepts', async () => {
    // Each action on each frame position once; every challenge of three distinct actions from those.
    const seen = new Map<string, FaceAnalysis>();
    for (const action of LIVENESS_ACTIONS) {
      for (const [i, frame] of frames.entries()) {
        seen.set(
          `${action}${i}`,
          await vision.analyzeFaces(frame, { embeddings: true, livenessAction: action }),
        );
      }
    }
    let challenges = 0;
    for (const a of LIVENESS_ACTIONS) {
      for (const b of LIVENESS_ACTIONS) {
        for (const c of LIVENESS_ACTIONS) {
          if (new Set([a, b, c]).size < 3) continue;
          const actions: LivenessAction[] = [a, b, c];
          const judgement = judgeLiveness(
            actions,
            actions.map((action, i) => seen.get(`${action}${i}`) as FaceAnalysis),
          );
          assert.equal(
            judgement.accepted,
            true,
            `${actions.join(',')}: ${JSON.stringify(judgement.actions)}`,
          );
          challenges++;
        }
      }
    }
    assert.equal(challenges, 60);
  });

  it('reads no MRZ or barcode off a document and never refuses it as the wrong kind', async () => {
    const image = await documentJpeg({ seed: 1 });
    for (const side of ['front', 'back'] as const) {
      const reading = await vision.readDocument(image, { documentType: 'id_card', side });
      assert.equal(reading.mrz, null);
      assert.equal(reading.barcode, null);
      assert.deepEqual(reading.engine, DETERMINISTIC);
      assert.equal(reading.faces.faces.length, side === 'front' ? 1 : 0);
      for (const type of ['passport', 'id_card', 'driving_licence', 'residence_permit', 'utility_bill']) {
        assert.deepEqual(judgeDocumentPhoto(reading, type, side), { ok: true }, `${type} ${side}`);
      }
    }
    const text = await vision.readText(image);
    assert.deepEqual(text, { text: '', confidence: 0, engine: DETERMINISTIC });
  });
});

describe('the mock with its deterministic vision: a session ends as it did before models', () => {
  const ORIGIN = 'https://api.mock-vision.idv.test';
  let server: MockServer;
  before(async () => {
    server = await startMockServer({ origin: ORIGIN, background: false });
  });
  after(() => server.close());

  async function call(
    path: string,
    init: { method?: string; token?: string; body?: unknown; form?: FormData },
  ) {
    const headers: Record<string, string> = init.token
      ? { 'x-verify-token': init.token }
      : { 'x-api-key': MOCK_FIXTURES.sandboxKey };
    let body: BodyInit | undefined;
    if (init.form) body = init.form;
    else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    const response = await fetch(`${ORIGIN}${path}`, { method: init.method ?? 'GET', headers, body });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  function form(fields: Record<string, string>, files: [string, Uint8Array][]): FormData {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    for (const [name, bytes] of files) {
      data.append(name, new File([bytes as Uint8Array<ArrayBuffer>], `${name}.jpg`, { type: 'image/jpeg' }));
    }
    return data;
  }

  it('approves a sandbox tier2 session: liveness and face match pass, named as deterministic', async () => {
    const created = await call('/v1/sessions', {
      method: 'POST',
      body: { country: 'DEU', flow: 'user', tier: 'tier2', external_user_reference: 'mock-vision-1' },
    });
    assert.equal(created.status, 201);
    const token = String(created.body['verify_url']).split('/verify/')[1] as string;
    const sessionId = created.body['session_id'];
    const consent = await call('/v1/verify/consent', {
      method: 'POST',
      token,
      body: { accepted: true, consent_version: 'v1' },
    });
    assert.equal(consent.status, 200);
    const documentFields = { step: 'id_document', document_type: 'id_card', issuing_country: 'DEU' };
    for (const [side, seed] of [
      ['front', 1],
      ['back', 2],
    ] as const) {
      const upload = await call('/v1/verify/documents', {
        method: 'POST',
        token,
        form: form({ ...documentFields, side }, [['image', await documentJpeg({ seed })]]),
      });
      assert.equal(upload.status, 201, JSON.stringify(upload.body));
      assert.equal(upload.body['reading']?.details_required ?? true, true, 'no MRZ read: details are typed');
    }
    const details = await call('/v1/verify/details', {
      method: 'PUT',
      token,
      body: { ...ANNA, mrz: annaMrz() },
    });
    assert.equal(details.status, 200, JSON.stringify(details.body));

    const challenge = await call('/v1/verify/liveness/challenge', { method: 'POST', token });
    const repeated = await call('/v1/verify/liveness', {
      method: 'POST',
      token,
      form: form({ challenge_id: challenge.body['challenge_id'] }, [
        ['frames', await faceFrameJpeg(0, 0)],
        ['frames', await faceFrameJpeg(0, 0)],
        ['frames', await faceFrameJpeg(0, 0)],
      ]),
    });
    assert.equal(repeated.body['status'], 'retry', 'one photo for every action is still a replay');

    const fresh = await call('/v1/verify/liveness/challenge', { method: 'POST', token });
    const frames = [
      await faceFrameJpeg(-0.12, 0),
      await faceFrameJpeg(0.12, 0),
      await faceFrameJpeg(0, -0.1),
    ];
    const liveness = await call('/v1/verify/liveness', {
      method: 'POST',
      token,
      form: form(
        { challenge_id: fresh.body['challenge_id'] },
        frames.map((bytes): [string, Uint8Array] => ['frames', bytes]),
      ),
    });
    assert.equal(liveness.body['status'], 'accepted', JSON.stringify(liveness.body));
    assert.equal((await call('/v1/verify/complete', { method: 'POST', token })).status, 200);
    await server.mock.flush();

    const result = await call(`/v1/sessions/${sessionId}/result`, {});
    assert.equal(result.body['decision'], 'approved', JSON.stringify(result.body['checks']));
    const check = (type: string) =>
      result.body['checks'].find((entry: { type: string }) => entry.type === type);
    assert.equal(check('liveness').status, 'passed');
    assert.equal(check('face_match').status, 'passed');
    assert.equal(check('face_match').details.engine, 'deterministic');
    assert.deepEqual(check('face_match').details.models, []);
  });
});
