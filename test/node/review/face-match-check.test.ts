import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decide } from '../../../server/domain/review/decide.ts';
import { checkFaceMatch, MIN_FACE_WIDTH_PX } from '../../../server/domain/review/face-match-check.ts';
import type { FaceMatchEvidence } from '../../../server/domain/review/review-input.ts';
import { COSINE_SPACE, PERSON_A, PERSON_B, ZONED_DLIB_SPACE } from '../domain/vision-fixtures.ts';
import { genuineFaceMatch, inputWith } from './vision-evidence.ts';

const check = (faceMatch: FaceMatchEvidence | undefined, liveness = { accepted: true }) =>
  checkFaceMatch(inputWith({ liveness, ...(faceMatch === undefined ? {} : { face_match: faceMatch }) }));

const probe = (overrides: Partial<FaceMatchEvidence['probes'][number]> = {}) => ({
  faces: 1,
  face_width: 240,
  embedding: PERSON_A,
  ...overrides,
});

/** PERSON_A moved by `distance` along the first axis: a face exactly that far from the portrait. */
const at = (distance: number) => [PERSON_A[0] + distance, ...PERSON_A.slice(1)];

/** Probes at these distances from the portrait, in the zoned space (match ≤ 0.55, mismatch > 0.62). */
const zoned = (...distances: number[]) =>
  genuineFaceMatch({
    space: ZONED_DLIB_SPACE,
    probes: distances.map((distance) => probe({ embedding: at(distance) })),
  });

describe('face_match check', () => {
  it('passes when the probes are the person of the document portrait, reporting the method', () => {
    const result = check(genuineFaceMatch());
    assert.equal(result.status, 'passed');
    // The three frames are 0.2828, 0.1 and 0 from the portrait, all of equal weight: the mean decides.
    assert.deepEqual(result.details, {
      score: 0.1276,
      zone: 'match',
      zone_reason:
        'The face matches: it is 0.1276 from the reference over 3 frames, within the match limit 0.6.',
      match_threshold: 0.6,
      mismatch_threshold: 0.6,
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
      frames_used: ['0', '1', '2'],
      frame_scores: ['0.2828', '0.1', '0'],
      probes_matched: 3,
    });
  });

  it('decides in three zones: match, uncertain (a review code), mismatch', () => {
    const match = check(zoned(0.5, 0.52));
    assert.equal(match.status, 'passed');
    assert.equal(match.details?.['zone'], 'match');
    assert.equal(match.details?.['match_threshold'], 0.55);
    assert.equal(match.details?.['mismatch_threshold'], 0.62);

    const uncertain = check(zoned(0.58, 0.6));
    assert.equal(uncertain.status, 'failed');
    assert.deepEqual(uncertain.reason_codes, ['face_match_uncertain']);
    assert.equal(uncertain.details?.['zone'], 'uncertain');
    assert.equal(uncertain.details?.['score'], 0.59);
    assert.equal(
      uncertain.details?.['zone_reason'],
      'Unsure: the face is 0.59 from the reference over 2 frames, between the match limit 0.55 and the mismatch limit 0.62; a person should compare them.',
    );

    const mismatch = check(zoned(0.63, 0.7));
    assert.equal(mismatch.status, 'failed');
    assert.deepEqual(mismatch.reason_codes, ['face_mismatch']);
    assert.equal(mismatch.details?.['zone'], 'mismatch');
    assert.match(String(mismatch.details?.['zone_reason']), /beyond the mismatch limit 0\.62/);
  });

  it('sends an uncertain face match to review, never approving or rejecting it', () => {
    const input = inputWith({ liveness: { accepted: true }, face_match: zoned(0.58, 0.6) });
    const session = { flow: 'user', tier: 'tier2', required_steps: ['liveness'] } as const;
    for (const environment of ['production', 'sandbox'] as const) {
      const result = decide({ ...input, session: { ...input.session, ...session }, environment });
      assert.equal(result.checks.find((c) => c.type === 'face_match')?.status, 'failed');
      assert.equal(result.decision, 'review_required', environment);
      assert.deepEqual(
        result.reasons.map((reason) => reason.code),
        ['face_match_uncertain'],
      );
    }
  });

  it('boundaries: the match limit itself matches, the mismatch limit itself is still uncertain', () => {
    assert.equal(check(zoned(0.55)).details?.['zone'], 'match');
    assert.equal(check(zoned(0.62)).details?.['zone'], 'uncertain');
    assert.equal(check(zoned(0.6201)).details?.['zone'], 'mismatch');
  });

  it('decides on the distance adjusted for both faces’ neighbourhoods, showing the plain one', () => {
    // PERSON_A's first number is 0.1: predicted 0.6 + 0.5·x₀. The portrait predicts 0.65; a probe moved
    // by d along that axis predicts 0.65 + 0.5·d, all against a typical 0.62.
    const space = {
      ...ZONED_DLIB_SPACE,
      neighbourhood: { weights: [0.5, 0, 0, 0], bias: 0.6, typical: 0.62, min: 0.5, max: 0.8 },
    };
    const result = check({ ...zoned(0.56), space });
    // The probe's 0.93 is held at the fitted 0.8: 0.56 − (0.65 + 0.8) / 2 + 0.62 = 0.455, faces in a
    // sparse neighbourhood, so the pair matches.
    assert.equal(result.details?.['zone'], 'match');
    assert.equal(result.details?.['score'], 0.455);
    assert.equal(result.details?.['distance'], 0.56);
    assert.equal(result.details?.['score_adjusted'], 'neighbourhood');
    assert.deepEqual(result.details?.['frame_scores'], ['0.455']);
    assert.equal(
      result.details?.['zone_reason'],
      'The face matches: it is 0.455 from the reference over 1 frame, within the match limit 0.55. (The distance is adjusted for how close strangers come to these two faces; unadjusted it is 0.56.)',
    );
    // Without the model the same pair is uncertain, and no adjustment is reported.
    const plain = check(zoned(0.56));
    assert.equal(plain.details?.['zone'], 'uncertain');
    assert.equal(plain.details?.['distance'], undefined);
    assert.equal(plain.details?.['score_adjusted'], undefined);
  });

  it('cannot compare a probe whose embedding does not fit the space’s neighbourhood model', () => {
    const space = {
      ...ZONED_DLIB_SPACE,
      neighbourhood: { weights: [0.5, 0], bias: 0.6, typical: 0.62, min: 0.5, max: 0.8 },
    };
    const result = check({ ...zoned(0.1), space });
    assert.equal(result.status, 'inconclusive');
    assert.equal(result.details?.['cause'], 'evidence_missing');
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

  it('fuses every frontal frame: one lucky frame of a look-alike no longer decides', () => {
    // The best of these frames (0.45) would have matched on its own; the mean (0.5833) is uncertain.
    const result = check(zoned(0.45, 0.65, 0.65));
    assert.equal(result.details?.['zone'], 'uncertain');
    assert.equal(result.details?.['probes_matched'], 1);
    assert.deepEqual(result.details?.['frame_scores'], ['0.45', '0.65', '0.65']);
  });

  it('weighs larger and more frontal faces more', () => {
    const evidence = genuineFaceMatch({
      space: ZONED_DLIB_SPACE,
      probes: [
        probe({ embedding: at(0.5), face_width: 300, pose: { yaw: 0, pitch: 0 } }),
        probe({ embedding: at(0.62), face_width: 90, pose: { yaw: 18, pitch: 10 } }),
      ],
    });
    // Unweighted, the mean would be 0.56 (uncertain); the small, turned face counts about half as much.
    const score = check(evidence).details?.['score'] as number;
    assert.ok(score > 0.5 && score < 0.55, `weighted toward the large frontal face: ${score}`);
    assert.equal(check(evidence).details?.['zone'], 'match');
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

  it('falls back to the turned probes when the challenge had no frontal frame, says so, and never matches on them alone', () => {
    const result = check(
      genuineFaceMatch({
        probes: [probe({ pose: { yaw: 30, pitch: 0 } }), probe({ pose: { yaw: -28, pitch: 4 } })],
      }),
    );
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['face_match_uncertain']);
    assert.equal(result.details?.['zone'], 'uncertain');
    assert.match(String(result.details?.['zone_reason']), /head turned/);
    assert.equal(result.details?.['probes_frontal'], 0);
    assert.equal(result.details?.['probes_compared'], 2);
    assert.equal(result.details?.['pose'], 'turned');
    // A stranger is still rejected on turned frames.
    const stranger = check(
      genuineFaceMatch({ probes: [probe({ embedding: PERSON_B, pose: { yaw: 30, pitch: 0 } })] }),
    );
    assert.deepEqual(stranger.reason_codes, ['face_mismatch']);
  });

  it('never matches on a reference photo whose head is turned (a profile portrait)', () => {
    const profile = check({
      ...zoned(0.3, 0.3),
      reference: {
        source: 'document_portrait',
        faces: 1,
        face_width: 180,
        pose: { yaw: 40, pitch: 0 },
        embedding: PERSON_A,
      },
    });
    assert.deepEqual(profile.reason_codes, ['face_match_uncertain']);
    assert.equal(profile.details?.['reference_pose'], 'turned');
    assert.match(String(profile.details?.['zone_reason']), /reference photo shows the head turned/);
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

describe('face_match check: poor evidence never rejects', () => {
  const floors = { sharpness: 0.05, eyes: 0.5 };
  const space = { ...ZONED_DLIB_SPACE, qualityFloors: floors };
  const good = { sharpness: 0.2, eyes: 0.8 };
  const blurred = { sharpness: 0.01, eyes: 0.8 };
  const sunglasses = { sharpness: 0.2, eyes: 0.3 };
  /** The portrait (of `referenceQuality`) against probes at these distances, each of its quality. */
  const pair = (
    referenceQuality: typeof good,
    ...probes: [distance: number, quality: typeof good][]
  ): FaceMatchEvidence =>
    genuineFaceMatch({
      space,
      reference: {
        source: 'document_portrait',
        faces: 1,
        face_width: 180,
        embedding: PERSON_A,
        quality: referenceQuality,
      },
      probes: probes.map(([distance, quality]) => probe({ embedding: at(distance), quality })),
    });

  it('rejects a far pair of good faces, as before', () => {
    const result = check(pair(good, [0.7, good]));
    assert.deepEqual(result.reason_codes, ['face_mismatch']);
    assert.equal(result.details?.['zone'], 'mismatch');
    assert.equal(result.details?.['quality_hold'], undefined);
    assert.deepEqual(result.details?.['frames_low_quality'], []);
    assert.equal(result.details?.['reference_sharpness'], 0.2);
    assert.equal(result.details?.['min_sharpness'], 0.05);
  });

  it('holds a far pair as uncertain when the reference photo is blurred, saying why', () => {
    const result = check(pair(blurred, [0.7, good]));
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['face_match_uncertain']);
    assert.equal(result.details?.['zone'], 'uncertain');
    assert.equal(result.details?.['quality_hold'], true);
    assert.deepEqual(result.details?.['reference_quality'], ['blurred']);
    assert.match(
      String(result.details?.['zone_reason']),
      /beyond the mismatch limit 0\.62, but the reference photo is poor evidence \(blurred/,
    );
    const input = inputWith({ liveness: { accepted: true }, face_match: pair(blurred, [0.7, good]) });
    const session = { ...input.session, flow: 'user', tier: 'tier2', required_steps: ['liveness'] } as const;
    assert.equal(decide({ ...input, session }).decision, 'review_required');
  });

  it('holds a far pair as uncertain when the only frame shows the eyes behind dark glasses', () => {
    const result = check(pair(good, [0.7, sunglasses]));
    assert.equal(result.details?.['zone'], 'uncertain');
    assert.deepEqual(result.details?.['frames_low_quality'], ['0:eyes_covered']);
    assert.match(String(result.details?.['zone_reason']), /frame 0 is poor evidence \(eyes covered/);
  });

  it('never makes a poor pair easier to match: the match and uncertain zones are the distance’s', () => {
    for (const quality of [blurred, sunglasses]) {
      const near = check(pair(quality, [0.58, quality]));
      assert.equal(near.details?.['zone'], 'uncertain', 'a poor pair between the limits stays uncertain');
      assert.equal(near.status, 'failed');
      assert.equal(near.details?.['quality_hold'], undefined);
      const close = check(pair(quality, [0.5, quality]));
      assert.equal(close.details?.['zone'], 'match', 'the floor does not hold a match either');
    }
  });

  it('rejects on the good frames alone when they are far, whatever a poor frame says', () => {
    // Fused over all three 0.77, over the two good frames 0.7: both beyond the mismatch limit.
    const result = check(pair(good, [0.7, good], [0.7, good], [0.9, blurred]));
    assert.equal(result.details?.['zone'], 'mismatch');
    assert.deepEqual(result.details?.['frames_low_quality'], ['2:blurred']);
  });

  it('holds when the good frames alone are not beyond the mismatch limit', () => {
    // Fused over all frames 0.7 (mismatch); the one good frame alone is 0.6 (uncertain).
    const result = check(pair(good, [0.6, good], [0.8, blurred]));
    assert.equal(result.details?.['zone'], 'uncertain');
    assert.equal(result.details?.['quality_hold'], true);
  });

  it('decides on distance alone when the quality was not measured, or the space has no floors', () => {
    const unmeasured = pair(good, [0.7, good]);
    const { quality: _quality, ...reference } = unmeasured.reference;
    assert.equal(
      check({ ...unmeasured, reference, probes: [probe({ embedding: at(0.7) })] }).details?.['zone'],
      'mismatch',
    );
    assert.equal(
      check({ ...pair(blurred, [0.7, blurred]), space: ZONED_DLIB_SPACE }).details?.['zone'],
      'mismatch',
    );
  });
});
