import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFaceMatch, MIN_FACE_WIDTH_PX } from '../../../server/domain/review/face-match-check.ts';
import type { FaceMatchEvidence } from '../../../server/domain/review/review-input.ts';
import { COSINE_SPACE, PERSON_A, PERSON_B } from '../domain/vision-fixtures.ts';
import { genuineFaceMatch, inputWith } from './vision-evidence.ts';

const check = (faceMatch: FaceMatchEvidence | undefined, liveness = { accepted: true }) =>
  checkFaceMatch(inputWith({ liveness, ...(faceMatch === undefined ? {} : { face_match: faceMatch }) }));

const probe = (overrides: Partial<FaceMatchEvidence['probes'][number]> = {}) => ({
  faces: 1,
  face_width: 240,
  embedding: PERSON_A,
  ...overrides,
});

describe('face_match check', () => {
  it('passes when the probes are the person of the document portrait, reporting the method', () => {
    const result = check(genuineFaceMatch());
    assert.equal(result.status, 'passed');
    assert.deepEqual(result.details, {
      score: 0,
      threshold: 0.6,
      metric: 'euclidean',
      space: 'dlib-resnet-v1',
      reference: 'document_portrait',
      engine: 'models',
      models: ['human-blazeface@3.3.6', 'dlib-resnet-v1@face-api-1.7.15'],
      min_face_width_px: MIN_FACE_WIDTH_PX,
      probes: 3,
      probes_frontal: 3,
      probes_compared: 3,
      probes_matched: 3,
    });
  });

  it('fails with face_mismatch when another person faces the camera', () => {
    const stranger = genuineFaceMatch({
      probes: [probe({ embedding: PERSON_B }), probe({ embedding: PERSON_B })],
    });
    const result = check(stranger);
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['face_mismatch']);
    assert.equal(result.details?.['probes_matched'], 0);
    assert.ok((result.details?.['score'] as number) > 0.6);
  });

  it('lets the best probe decide: a turned frame that embeds poorly does not fail a match', () => {
    const result = check(genuineFaceMatch({ probes: [probe({ embedding: PERSON_B }), probe()] }));
    assert.equal(result.status, 'passed');
    assert.equal(result.details?.['probes_matched'], 1);
  });

  it('compares only the frontal probes when there are some: a turned frame close to a stranger does not pass', () => {
    // PERSON_A is the portrait. A head turned 35° may embed near someone else; here the turned frame is
    // the portrait's person and the frontal ones are not, which must fail: turned frames are not compared.
    const result = check(
      genuineFaceMatch({
        probes: [
          probe({ pose: { yaw: 35, pitch: 0 } }),
          probe({ embedding: PERSON_B, pose: { yaw: 2, pitch: -5 } }),
          probe({ embedding: PERSON_B, pose: { yaw: -4, pitch: 18 } }),
        ],
      }),
    );
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['face_mismatch']);
    assert.equal(result.details?.['probes_frontal'], 2);
    assert.equal(result.details?.['probes_compared'], 2);
    assert.equal(result.details?.['pose'], undefined);
  });

  it('falls back to the turned probes when the challenge had no frontal frame, and says so', () => {
    const result = check(
      genuineFaceMatch({
        probes: [probe({ pose: { yaw: 30, pitch: 0 } }), probe({ pose: { yaw: -28, pitch: 4 } })],
      }),
    );
    assert.equal(result.status, 'passed');
    assert.equal(result.details?.['probes_frontal'], 0);
    assert.equal(result.details?.['probes_compared'], 2);
    assert.equal(result.details?.['pose'], 'turned');
  });

  it('compares by similarity in a cosine space', () => {
    const cosine = genuineFaceMatch({
      space: COSINE_SPACE,
      reference: { source: 'enrolled_selfie', faces: 1, face_width: 200, embedding: [1, 0] },
      probes: [probe({ embedding: [0.9, 0.1] })],
    });
    const result = check(cosine);
    assert.equal(result.status, 'passed');
    assert.equal(result.details?.['metric'], 'cosine');
    assert.equal(result.details?.['reference'], 'enrolled_selfie');
    assert.equal(check({ ...cosine, probes: [probe({ embedding: [0, 1] })] }).status, 'failed');
  });

  it('accepts a document with a ghost image beside the portrait', () => {
    const ghost = genuineFaceMatch({
      reference: { source: 'document_portrait', faces: 2, face_width: 180, embedding: PERSON_A },
    });
    assert.equal(check(ghost).status, 'passed');
  });

  const inconclusive: Array<[string, FaceMatchEvidence, string]> = [
    [
      'no face on the document',
      genuineFaceMatch({ reference: { source: 'document_portrait', faces: 0, face_width: 0 } }),
      'no_face_on_document',
    ],
    [
      'a photo with several documents',
      genuineFaceMatch({
        reference: { source: 'document_portrait', faces: 3, face_width: 180, embedding: PERSON_A },
      }),
      'several_faces',
    ],
    [
      'an enrolled selfie with two people',
      genuineFaceMatch({
        reference: { source: 'enrolled_selfie', faces: 2, face_width: 180, embedding: PERSON_A },
      }),
      'several_faces',
    ],
    [
      `a portrait narrower than ${MIN_FACE_WIDTH_PX} px`,
      genuineFaceMatch({
        reference: {
          source: 'document_portrait',
          faces: 1,
          face_width: MIN_FACE_WIDTH_PX - 1,
          embedding: PERSON_A,
        },
      }),
      'face_too_small',
    ],
    [
      'a portrait without embedding',
      genuineFaceMatch({ reference: { source: 'document_portrait', faces: 1, face_width: 180 } }),
      'evidence_missing',
    ],
    ['no probes', genuineFaceMatch({ probes: [] }), 'evidence_missing'],
    [
      'no face on any probe (a cartoon)',
      genuineFaceMatch({ probes: [probe({ faces: 0, face_width: 0, embedding: undefined })] }),
      'no_face_on_selfie',
    ],
    [
      'two people on every probe',
      genuineFaceMatch({ probes: [probe({ faces: 2 }), probe({ faces: 0, face_width: 0 })] }),
      'several_faces',
    ],
    [
      'faces too small on every probe',
      genuineFaceMatch({ probes: [probe({ face_width: 50 }), probe({ faces: 0, face_width: 0 })] }),
      'face_too_small',
    ],
    [
      'probes without embeddings',
      genuineFaceMatch({ probes: [probe({ embedding: undefined })] }),
      'evidence_missing',
    ],
    [
      'probes of another dimension',
      genuineFaceMatch({ probes: [probe({ embedding: [0.1, 0.2] })] }),
      'evidence_missing',
    ],
  ];
  for (const [label, evidence, cause] of inconclusive) {
    it(`is inconclusive (${cause}) with ${label}`, () => {
      const result = check(evidence);
      assert.equal(result.status, 'inconclusive');
      assert.equal(result.details?.['cause'], cause);
    });
  }

  it('is inconclusive for model_unavailable when no engine ran, and evidence_missing without liveness', () => {
    assert.deepEqual(check(undefined).details, { cause: 'model_unavailable' });
    const noLiveness = checkFaceMatch(inputWith({}));
    assert.deepEqual(noLiveness.details, { cause: 'evidence_missing' });
  });

  it('keeps embeddings out of the details', () => {
    const details = JSON.stringify(check(genuineFaceMatch()).details);
    assert.doesNotMatch(details, /0\.1,0\.2|embedding/);
  });
});
