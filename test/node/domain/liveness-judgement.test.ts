import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LivenessAction } from '../../../server/domain/liveness-challenge.ts';
import { judgeLiveness, LIVENESS_THRESHOLDS } from '../../../server/domain/liveness-judgement.ts';
import type { FaceAnalysis } from '../../../server/features/vision/vision-engine.ts';
import {
  analysis,
  COSINE_SPACE,
  face,
  PERSON_A_AGAIN,
  PERSON_A_TURNED,
  PERSON_B,
} from './vision-fixtures.ts';

/** Each action as a person performs it, from a relaxed, straight pose. */
const PERFORMED: Readonly<Record<LivenessAction, FaceAnalysis>> = {
  turn_left: analysis([face({ yaw: -25, embedding: PERSON_A_TURNED })]),
  turn_right: analysis([face({ yaw: 24, embedding: PERSON_A_TURNED })]),
  look_up: analysis([face({ pitch: -16, embedding: PERSON_A_AGAIN })]),
  blink: analysis([face({ leftEyeOpen: 0.08, rightEyeOpen: 0.12 })]),
  smile: analysis([face({ smile: 0.86, mouthOpen: 0.3 })]),
};

const outcomes = (actions: readonly LivenessAction[], frames: readonly FaceAnalysis[]) =>
  judgeLiveness(actions, frames).actions.map((verdict) => verdict.outcome);

describe('liveness judgement: a genuine answer', () => {
  it('accepts three actions performed by the same single face, reporting measures and thresholds', () => {
    const actions: LivenessAction[] = ['turn_left', 'smile', 'blink'];
    const judgement = judgeLiveness(
      actions,
      actions.map((action) => PERFORMED[action]),
    );
    assert.equal(judgement.accepted, true);
    assert.equal(judgement.failure, null);
    assert.deepEqual(
      judgement.actions.map(({ action, frame, outcome }) => [action, frame, outcome]),
      [
        ['turn_left', 0, 'performed'],
        ['smile', 1, 'performed'],
        ['blink', 2, 'performed'],
      ],
    );
    const [turn] = judgement.actions;
    assert.equal(turn?.measured['yaw'], -25);
    assert.equal(turn?.measured['faces'], 1);
    assert.equal(judgement.actions[2]?.measured['eyes_open'], 0.12, 'the more open eye is reported');
    assert.ok((judgement.actions[1]?.measured['identity_distance'] ?? 1) <= 0.6);
    assert.deepEqual(judgement.thresholds, { ...LIVENESS_THRESHOLDS });
  });

  const everyAction: LivenessAction[] = ['turn_left', 'turn_right', 'look_up', 'smile', 'blink'];
  for (const action of everyAction) {
    it(`recognises ${action} among other actions`, () => {
      const others = everyAction.filter((other) => other !== action).slice(0, 2);
      const actions = [action, ...others];
      assert.deepEqual(
        outcomes(
          actions,
          actions.map((each) => PERFORMED[each]),
        ),
        ['performed', 'performed', 'performed'],
      );
    });
  }

  it('accepts a turn exactly at the threshold, and not one degree short of it', () => {
    const actions: LivenessAction[] = ['turn_right', 'smile'];
    const at = analysis([face({ yaw: LIVENESS_THRESHOLDS.turn_yaw_degrees })]);
    const short = analysis([face({ yaw: LIVENESS_THRESHOLDS.turn_yaw_degrees - 1 })]);
    assert.deepEqual(outcomes(actions, [at, PERFORMED.smile]), ['performed', 'performed']);
    assert.deepEqual(outcomes(actions, [short, PERFORMED.smile]), ['not_performed', 'performed']);
  });

  it('compares faces in a cosine space by similarity', () => {
    const inCosine = (frame: FaceAnalysis) => ({ ...frame, embeddingSpace: COSINE_SPACE });
    const actions: LivenessAction[] = ['look_up', 'blink'];
    const judgement = judgeLiveness(actions, [inCosine(PERFORMED.look_up), inCosine(PERFORMED.blink)]);
    assert.equal(judgement.accepted, true);
    assert.ok((judgement.actions[1]?.measured['identity_similarity'] ?? 0) >= COSINE_SPACE.threshold);
  });

  it('judges a single-action challenge on the absolute thresholds alone', () => {
    assert.equal(judgeLiveness(['smile'], [PERFORMED.smile]).accepted, true);
  });

  it('ignores frames beyond the challenge', () => {
    const judgement = judgeLiveness(['smile'], [PERFORMED.smile, analysis([])]);
    assert.equal(judgement.accepted, true);
    assert.equal(judgement.actions.length, 1);
  });
});

describe('liveness judgement: what fails', () => {
  it('reports a frame without a face as no_face, and judges the others', () => {
    const judgement = judgeLiveness(
      ['turn_left', 'smile', 'blink'],
      [PERFORMED.turn_left, analysis([]), PERFORMED.blink],
    );
    assert.equal(judgement.accepted, false);
    assert.equal(judgement.failure, 'no_face');
    assert.deepEqual(
      judgement.actions.map((verdict) => verdict.outcome),
      ['performed', 'no_face', 'performed'],
    );
    assert.deepEqual(judgement.actions[1]?.measured, { faces: 0 });
  });

  it('reports a frame with two faces as several_faces', () => {
    const two = analysis([face({ smile: 0.9 }), face({ embedding: PERSON_B })]);
    const judgement = judgeLiveness(['turn_left', 'smile'], [PERFORMED.turn_left, two]);
    assert.equal(judgement.failure, 'several_faces');
    assert.deepEqual(judgement.actions[1]?.measured, { faces: 2 });
  });

  it('reports another person stepping in as face_changed, with the distance measured', () => {
    const stranger = analysis([face({ leftEyeOpen: 0.05, rightEyeOpen: 0.05, embedding: PERSON_B })]);
    const judgement = judgeLiveness(
      ['turn_left', 'smile', 'blink'],
      [PERFORMED.turn_left, PERFORMED.smile, stranger],
    );
    assert.equal(judgement.failure, 'face_changed');
    assert.deepEqual(
      judgement.actions.map((verdict) => verdict.outcome),
      ['performed', 'performed', 'face_changed'],
    );
    assert.ok((judgement.actions[2]?.measured['identity_distance'] ?? 0) > 0.6);
  });

  it('links frames of one person through a chain: turned and closed-eye frames need not match each other', () => {
    // 0.5 from the middle frame each, 1.0 from each other: beyond the 0.6 threshold directly, linked via it.
    const turned = analysis([face({ yaw: -30, embedding: [0.5, 0, 0, 0] })]);
    const frontal = analysis([face({ smile: 0.9, embedding: [0, 0, 0, 0] })]);
    const closed = analysis([face({ leftEyeOpen: 0.05, rightEyeOpen: 0.05, embedding: [-0.5, 0, 0, 0] })]);
    const judgement = judgeLiveness(['turn_left', 'smile', 'blink'], [turned, frontal, closed]);
    assert.equal(judgement.failure, null);
    assert.equal(judgement.actions[0]?.measured['identity_distance'], 0.5);
  });

  it('keeps the earlier person when two people answer one frame each', () => {
    const stranger = analysis([face({ smile: 0.9, embedding: PERSON_B })]);
    const judgement = judgeLiveness(['turn_left', 'smile'], [PERFORMED.turn_left, stranger]);
    assert.deepEqual(
      judgement.actions.map((verdict) => verdict.outcome),
      ['performed', 'face_changed'],
    );
  });

  it('treats a face without embedding as face_changed: it cannot prove it is the same person', () => {
    const anonymous = analysis([face({ smile: 0.9, embedding: undefined })]);
    const judgement = judgeLiveness(['turn_left', 'smile'], [PERFORMED.turn_left, anonymous]);
    assert.equal(judgement.failure, 'face_changed');
    const noneEmbedded = judgeLiveness(['smile'], [anonymous]);
    assert.equal(noneEmbedded.failure, 'face_changed');
  });

  it('treats embeddings of another embedder as face_changed: they do not compare', () => {
    const otherSpace = { ...PERFORMED.smile, embeddingSpace: COSINE_SPACE };
    assert.equal(
      judgeLiveness(['turn_left', 'smile'], [PERFORMED.turn_left, otherSpace]).failure,
      'face_changed',
    );
  });

  it('rejects a replayed still: the same frame cannot answer different prompts', () => {
    const still = analysis([face({ yaw: -25, smile: 0.9, leftEyeOpen: 0.1, rightEyeOpen: 0.1 })]);
    const judgement = judgeLiveness(['turn_left', 'smile', 'blink'], [still, still, still]);
    assert.equal(judgement.accepted, false);
    assert.equal(judgement.failure, 'not_performed');
    assert.deepEqual(
      judgement.actions.map((verdict) => verdict.outcome),
      ['not_performed', 'not_performed', 'not_performed'],
    );
  });

  it('does not count a head resting turned as a turn: the turn must stand out from the other frames', () => {
    // Everything happens at a resting yaw of -16°, which alone passes the absolute threshold.
    const resting = { yaw: -16 };
    const frames = [
      analysis([face({ ...resting, yaw: -18 })]),
      analysis([face({ ...resting, smile: 0.9 })]),
      analysis([face({ ...resting, leftEyeOpen: 0.1, rightEyeOpen: 0.1 })]),
    ];
    assert.deepEqual(outcomes(['turn_left', 'smile', 'blink'], frames), [
      'not_performed',
      'performed',
      'performed',
    ]);
  });

  it('does not count a turn the wrong way', () => {
    assert.deepEqual(outcomes(['turn_left', 'smile'], [PERFORMED.turn_right, PERFORMED.smile]), [
      'not_performed',
      'performed',
    ]);
  });

  it('does not judge a smile or a blink on a face turned away', () => {
    const turnedSmile = analysis([face({ smile: 0.9, yaw: LIVENESS_THRESHOLDS.frontal_max_degrees + 5 })]);
    const raisedBlink = analysis([face({ leftEyeOpen: 0.05, rightEyeOpen: 0.05, pitch: -30 })]);
    assert.deepEqual(
      outcomes(['turn_left', 'smile', 'blink'], [PERFORMED.turn_left, turnedSmile, raisedBlink]),
      ['performed', 'not_performed', 'not_performed'],
    );
  });

  it('needs both eyes closed for a blink', () => {
    const wink = analysis([face({ leftEyeOpen: 0.05, rightEyeOpen: 0.8 })]);
    assert.deepEqual(outcomes(['blink', 'smile'], [wink, PERFORMED.smile]), ['not_performed', 'performed']);
  });

  it('does not count a slight smile', () => {
    const slight = analysis([face({ smile: 0.4 })]);
    assert.deepEqual(outcomes(['smile', 'blink'], [slight, PERFORMED.blink]), ['not_performed', 'performed']);
  });

  it('reports the first failure in challenge order', () => {
    const judgement = judgeLiveness(
      ['turn_left', 'smile', 'blink'],
      [analysis([face({ yaw: 0 })]), analysis([]), PERFORMED.blink],
    );
    assert.equal(judgement.failure, 'not_performed');
  });

  it('counts a missing frame as no_face', () => {
    const judgement = judgeLiveness(['turn_left', 'smile'], [PERFORMED.turn_left]);
    assert.equal(judgement.failure, 'no_face');
    assert.equal(judgement.actions.length, 2);
  });

  it('does not accept an empty challenge', () => {
    const judgement = judgeLiveness([], []);
    assert.equal(judgement.accepted, false);
    assert.equal(judgement.failure, 'not_performed');
  });
});
