import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionSignal, standsOut } from '../../../src/liveness/action-contrast.ts';
import {
  ActionFollower,
  actionSeen,
  DEVICE_THRESHOLDS,
  type FaceMeasure,
  firstWeakAction,
  guidanceIssue,
} from '../../../src/liveness/face-guidance.ts';
import { type HumanFace, measureHumanFace } from '../../../src/liveness/human-face-measure.ts';

/** A frontal, neutral face filling 40 % of the frame's width, centred. */
function face(overrides: Partial<FaceMeasure> = {}): FaceMeasure {
  return {
    box: { x: 0.3, y: 0.2, width: 0.4, height: 0.5 },
    yaw: 0,
    pitch: 0,
    eyesOpen: 1,
    smile: 0.1,
    ...overrides,
  };
}

describe('on-device liveness guidance: when is the action seen', () => {
  it('reads turns in the server convention: yaw < 0 is the person’s own left', () => {
    assert.equal(actionSeen('turn_left', face({ yaw: -25 })), true);
    assert.equal(actionSeen('turn_left', face({ yaw: 25 })), false);
    assert.equal(actionSeen('turn_right', face({ yaw: 25 })), true);
    assert.equal(actionSeen('turn_right', face({ yaw: -25 })), false);
  });

  it('waits for a little more than the server’s bar (turn 15°, look up 10°)', () => {
    assert.equal(actionSeen('turn_left', face({ yaw: -15 })), false);
    assert.equal(actionSeen('turn_left', face({ yaw: -DEVICE_THRESHOLDS.turnYawDegrees })), true);
    assert.equal(actionSeen('look_up', face({ pitch: -10 })), false);
    assert.equal(actionSeen('look_up', face({ pitch: -15 })), true);
    assert.equal(actionSeen('look_up', face({ pitch: 15 })), false, 'looking down');
  });

  it('reads a blink and a smile on a roughly frontal face only, and only when measured', () => {
    assert.equal(actionSeen('blink', face({ eyesOpen: 0.1 })), true);
    assert.equal(actionSeen('blink', face({ eyesOpen: 0.5 })), false);
    assert.equal(actionSeen('blink', face({ eyesOpen: 0.1, yaw: 30 })), false);
    assert.equal(actionSeen('blink', face({ eyesOpen: null })), false);
    assert.equal(actionSeen('smile', face({ smile: 0.9 })), true);
    assert.equal(actionSeen('smile', face({ smile: 0.4 })), false);
    assert.equal(actionSeen('smile', face({ smile: 0.9, pitch: -25 })), false);
    assert.equal(actionSeen('smile', face({ smile: null })), false);
  });

  it('never sees an action it does not know (the timeout takes that frame)', () => {
    assert.equal(actionSeen('wink', face({ yaw: -40, eyesOpen: 0 })), false);
  });
});

describe('on-device liveness guidance: what stands in the way', () => {
  it('asks for a face, for one face only, and for a closer one', () => {
    assert.equal(guidanceIssue([], null), 'no_face');
    assert.equal(
      guidanceIssue([face(), face({ box: { x: 0, y: 0, width: 0.3, height: 0.3 } })], null),
      'several_faces',
    );
    assert.equal(
      guidanceIssue([face({ box: { x: 0.4, y: 0.4, width: 0.15, height: 0.2 } })], null),
      'move_closer',
    );
    assert.equal(guidanceIssue([face()], null), null);
  });

  it('asks to hold still when the face moved since the previous look', () => {
    const before = face();
    const nudged = face({ box: { ...before.box, x: before.box.x + 0.02 } });
    const moved = face({ box: { ...before.box, x: before.box.x + 0.1 } });
    assert.equal(guidanceIssue([nudged], before), null);
    assert.equal(guidanceIssue([moved], before), 'hold_still');
  });

  it('fires on the second look in a row that sees the action on a still face', () => {
    const follow = new ActionFollower('turn_left');
    const turned = face({ yaw: -26 });
    assert.deepEqual(follow.look([face()]), { issue: null, ready: false, face: face() });
    assert.deepEqual(follow.look([face({ yaw: -25 })]).ready, false);
    assert.deepEqual(follow.look([turned]), { issue: null, ready: true, face: turned });
  });

  it('starts over when the face moves, disappears or is joined by another', () => {
    const turned = face({ yaw: -25 });
    const follow = new ActionFollower('turn_left');
    const verdict = (faces: FaceMeasure[]) => {
      const { issue, ready } = follow.look(faces);
      return { issue, ready };
    };
    verdict([turned]);
    assert.deepEqual(verdict([]), { issue: 'no_face', ready: false });
    assert.deepEqual(verdict([turned]), { issue: null, ready: false });
    assert.deepEqual(follow.look([turned, face()]), { issue: 'several_faces', ready: false, face: null });
    assert.deepEqual(verdict([turned]), { issue: null, ready: false });
    const elsewhere = face({ yaw: -25, box: { x: 0.05, y: 0.2, width: 0.4, height: 0.5 } });
    assert.deepEqual(verdict([elsewhere]), { issue: 'hold_still', ready: false });
    assert.deepEqual(verdict([elsewhere]), { issue: null, ready: false });
    assert.deepEqual(verdict([elsewhere]), { issue: null, ready: true });
  });
});

describe('on-device liveness guidance: does each action stand out from the others', () => {
  it('signs each action as the server does: larger is more performed', () => {
    const turned = face({ yaw: -20, pitch: -12, eyesOpen: 0.2, smile: 0.7 });
    assert.equal(actionSignal('turn_left', turned), 20);
    assert.equal(actionSignal('turn_right', turned), -20);
    assert.equal(actionSignal('look_up', turned), 12);
    assert.equal(actionSignal('blink', turned), -0.2);
    assert.equal(actionSignal('smile', turned), 0.7);
    assert.equal(actionSignal('blink', face({ eyesOpen: null })), null);
    assert.equal(actionSignal('wink', turned), null);
  });

  it('finds a turn only a little more than the head’s rest in the other frames', () => {
    // A person resting 12° to their left: "turn left" at 18° is 6° more, under the server's 10°.
    const resting = { yaw: -12 };
    const measures = [
      face({ yaw: -18 }),
      face({ ...resting, pitch: -14 }),
      face({ ...resting, eyesOpen: 0.1 }),
    ];
    assert.equal(firstWeakAction(['turn_left', 'look_up', 'blink'], measures), 0);
    const clearTurn = [face({ yaw: -28 }), ...measures.slice(1)];
    assert.equal(firstWeakAction(['turn_left', 'look_up', 'blink'], clearTurn), -1);
  });

  it('asks the device’s margin on top of the server’s contrast', () => {
    // 11° above the least turned other frame: enough for the server's 10°, not for the device's 13°.
    const measures = [face({ yaw: -21 }), face({ yaw: -10, pitch: -15 })];
    assert.equal(firstWeakAction(['turn_left', 'look_up'], measures), 0);
    assert.equal(standsOut('turn_left', 21, [10], 'server'), true);
    assert.equal(standsOut('turn_left', 21, [10], 'device'), false);
  });

  it('leaves frames the model did not measure, and actions it does not know, to the server', () => {
    assert.equal(firstWeakAction(['turn_left', 'look_up'], [null, face({ yaw: -20, pitch: -15 })]), -1);
    assert.equal(firstWeakAction(['turn_left'], [face({ yaw: -18 })]), -1, 'nothing to compare');
    assert.equal(firstWeakAction(['wink', 'turn_left'], [face(), face({ yaw: -25 })]), -1);
  });
});

/** A 478-point mesh with both eyes 30 px wide whose lids are `gap` px apart (3-D distances). */
function meshWithEyes(gap: number): number[][] {
  const mesh = Array.from({ length: 478 }, () => [320, 240, 0]);
  // [upper, lower, outer, inner] per eye, as the server's engine reads them.
  for (const [upper, lower, outer, inner, x] of [
    [159, 145, 33, 133, 260],
    [386, 374, 263, 362, 380],
  ] as const) {
    mesh[outer] = [x - 15, 200, 0];
    mesh[inner] = [x + 15, 200, 0];
    mesh[upper] = [x, 200 - gap / 2, 0];
    mesh[lower] = [x, 200 + gap / 2, 0];
  }
  return mesh;
}

describe('Human face → the server’s units', () => {
  const human = (overrides: Partial<HumanFace> = {}): HumanFace => ({
    box: [160, 96, 256, 288],
    mesh: meshWithEyes(12),
    rotation: { angle: { yaw: -0.5, pitch: 0.25, roll: 0 } },
    ...overrides,
  });

  it('gives the box as fractions of the frame and the pose in degrees, with Human’s signs', () => {
    const measure = measureHumanFace(human(), 640, 480);
    assert.deepEqual(measure.box, { x: 0.25, y: 0.2, width: 0.4, height: 0.6 });
    assert.ok(Math.abs(measure.yaw - -28.65) < 0.01, String(measure.yaw));
    assert.ok(Math.abs(measure.pitch - 14.32) < 0.01, String(measure.pitch));
  });

  it('reads eye openness like the server: aspect 0.35 and over is open, 0.15 and under closed', () => {
    assert.equal(measureHumanFace(human({ mesh: meshWithEyes(12) }), 640, 480).eyesOpen, 1);
    assert.equal(measureHumanFace(human({ mesh: meshWithEyes(3) }), 640, 480).eyesOpen, 0);
    const half = measureHumanFace(human({ mesh: meshWithEyes(7.5) }), 640, 480).eyesOpen ?? -1;
    assert.ok(Math.abs(half - 0.5) < 1e-9, String(half));
    assert.equal(measureHumanFace(human({ mesh: [] }), 640, 480).eyesOpen, null);
  });

  it('takes the smile from the emotion model’s "happy", and says nothing without that model', () => {
    assert.equal(measureHumanFace(human(), 640, 480).smile, null);
    const happy = human({
      emotion: [
        { emotion: 'happy', score: 0.93 },
        { emotion: 'neutral', score: 0.05 },
      ],
    });
    assert.equal(measureHumanFace(happy, 640, 480).smile, 0.93);
    assert.equal(measureHumanFace(human({ emotion: [{ emotion: 'sad', score: 0.8 }] }), 640, 480).smile, 0);
  });
});
