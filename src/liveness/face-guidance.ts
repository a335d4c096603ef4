import type { LivenessAction } from '../api/verify-api.ts';
import { actionSignal, standsOut } from './action-contrast.ts';

/**
 * One face as the on-device model saw it, in the units of the server's face analysis
 * (server/features/vision/vision-engine.ts), measured on the frame as it is sent (not mirrored).
 */
export interface FaceMeasure {
  /** The face's box as fractions of the frame's width and height. */
  box: { x: number; y: number; width: number; height: number };
  /** Degrees; < 0: the person turned to their own left. */
  yaw: number;
  /** Degrees; < 0: the person looks up. */
  pitch: number;
  /** The more open of the two eyes, 0 (closed) to 1 (open); null when the model gave no eyelids. */
  eyesOpen: number | null;
  /** 0–1; null when the smile model is not loaded. */
  smile: number | null;
}

/** What the end-user should change before the frame can be taken. */
export type GuidanceIssue = 'no_face' | 'several_faces' | 'move_closer' | 'hold_still';

/**
 * The bars the device waits for before it takes a frame: a little beyond the server's own
 * (server/domain/liveness-judgement.ts: turn 15°, look up 10°, both eyes at most 0.35 open, smile 0.5),
 * because the server judges the frame again (after JPEG encoding) and a frame taken right at its bar is
 * a coin toss. Not much beyond: a comfortable turn reads about 20–25° and a look up about 15° on the
 * face mesh, and a bar the person cannot reach only makes them wait for the timeout. The device only
 * decides *when* to shoot; a frame that never reaches a bar is still sent at the timeout.
 */
export const DEVICE_THRESHOLDS = {
  turnYawDegrees: 17,
  lookUpPitchDegrees: 12,
  blinkEyesOpenMax: 0.3,
  smileMin: 0.6,
  /** Eyes and smile are read on a roughly frontal face only (the server's `frontal_max_degrees` is 20). */
  frontalMaxDegrees: 16,
  /** A face narrower than this share of the frame is too far for a reliable comparison. */
  minFaceWidth: 0.22,
  /** The face's centre may move this share of its width between two looks and still count as still. */
  maxShift: 0.12,
} as const;

const T = DEVICE_THRESHOLDS;

/**
 * Whether `face` performs `action` as the server will judge it. An action this device does not know is
 * never "seen": the timeout takes its frame.
 *
 * @example
 *   actionSeen('turn_left', { yaw: -27, pitch: 2, … }) // → true
 */
export function actionSeen(action: LivenessAction, face: FaceMeasure): boolean {
  const frontal = Math.abs(face.yaw) <= T.frontalMaxDegrees && Math.abs(face.pitch) <= T.frontalMaxDegrees;
  switch (action) {
    case 'turn_left':
      return face.yaw <= -T.turnYawDegrees;
    case 'turn_right':
      return face.yaw >= T.turnYawDegrees;
    case 'look_up':
      return face.pitch <= -T.lookUpPitchDegrees;
    case 'blink':
      return frontal && face.eyesOpen !== null && face.eyesOpen <= T.blinkEyesOpenMax;
    case 'smile':
      return frontal && face.smile !== null && face.smile >= T.smileMin;
    default:
      return false;
  }
}

/**
 * The first frame of an answered challenge whose action does not stand out from the other frames as the
 * server will judge it (action-contrast.ts, with the device's margin), or -1: a person resting with the
 * head turned a little left, whose "turn left" is then only a few degrees more than their "look up".
 * `measures[i]` is the face the model saw on frame `i`; frames without one (taken by the timer or by
 * Capture, before the model looked) are left to the server, and so is an action nothing measured.
 *
 * @example
 *   firstWeakAction(['turn_left', 'look_up'], [{ yaw: -18, … }, { yaw: -12, pitch: -14, … }]) // → 0
 */
export function firstWeakAction(
  actions: readonly LivenessAction[],
  measures: readonly (FaceMeasure | null)[],
): number {
  return actions.findIndex((action, i) => {
    const face = measures[i];
    const signal = face ? actionSignal(action, face) : null;
    if (signal === null) return false;
    const others = measures.flatMap((other, j) => {
      const value = other && j !== i ? actionSignal(action, other) : null;
      return value === null ? [] : [value];
    });
    return !standsOut(action, signal, others, 'device');
  });
}

const centre = (face: FaceMeasure) => [face.box.x + face.box.width / 2, face.box.y + face.box.height / 2];

/**
 * The first thing in the way of a usable frame, or null: one face, close enough, not moving since the
 * previous look.
 *
 * @example
 *   guidanceIssue([], null) // → 'no_face'
 */
export function guidanceIssue(
  faces: readonly FaceMeasure[],
  previous: FaceMeasure | null,
): GuidanceIssue | null {
  const face = faces[0];
  if (!face) return 'no_face';
  if (faces.length > 1) return 'several_faces';
  if (face.box.width < T.minFaceWidth) return 'move_closer';
  if (previous) {
    const [x, y] = centre(face) as [number, number];
    const [px, py] = centre(previous) as [number, number];
    if (Math.hypot(x - px, y - py) > T.maxShift * face.box.width) return 'hold_still';
  }
  return null;
}

/** What one look at a frame concluded. */
export interface GuidanceVerdict {
  issue: GuidanceIssue | null;
  /** The action is performed, by a still, single, close enough face, on this look and the one before. */
  ready: boolean;
  /** The single face this look saw, null for none or several. */
  face: FaceMeasure | null;
}

/**
 * Follows one prompted action across successive looks: a frame is taken only when the action has been
 * seen twice in a row on a still face, so a head passing through the pose on its way elsewhere (or one
 * noisy estimate) does not fire the shutter.
 *
 * @example
 *   const follow = new ActionFollower('blink');
 *   follow.look(faces).ready // false on the first look, true on the second look that sees it
 */
export class ActionFollower {
  readonly action: LivenessAction;
  #previous: FaceMeasure | null = null;
  #seenBefore = false;

  constructor(action: LivenessAction) {
    this.action = action;
  }

  look(faces: readonly FaceMeasure[]): GuidanceVerdict {
    const issue = guidanceIssue(faces, this.#previous);
    const face = faces.length === 1 ? (faces[0] as FaceMeasure) : null;
    this.#previous = face;
    const seen = issue === null && face !== null && actionSeen(this.action, face);
    const ready = seen && this.#seenBefore;
    this.#seenBefore = seen;
    return { issue, ready, face };
  }
}
