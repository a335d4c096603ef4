/**
 * The actions the server prompts today (a newer server's other actions are judged by it alone). Spelled
 * out rather than imported: the server runs this file as it is, with no other file of the widget.
 */
type KnownAction = 'turn_left' | 'turn_right' | 'look_up' | 'blink' | 'smile';

/**
 * How far each action's measure must stand above the least-performing other frame of the challenge: the
 * one rule the server judges an answered challenge by (server/domain/liveness-judgement.ts, its
 * `*_contrast` thresholds) and the widget checks its frames against before it sends them. Several times
 * the face mesh's frame-to-frame jitter (2–3° of head pose, ~0.05 of eye openness). A smile has none:
 * people commonly smile at a camera through the whole capture, so a held smile is no sign of a replay.
 */
export const ACTION_CONTRAST: Readonly<Record<KnownAction, number>> = {
  turn_left: 10,
  turn_right: 10,
  look_up: 7,
  blink: 0.25,
  smile: 0,
};

/**
 * How much more the widget asks than {@link ACTION_CONTRAST}: the server measures every frame again, on
 * the JPEG and with its own face mesh, and a set that stands out just at the bar is a coin toss there.
 */
export const DEVICE_CONTRAST_MARGIN: Readonly<Record<KnownAction, number>> = {
  turn_left: 3,
  turn_right: 3,
  look_up: 2,
  blink: 0.05,
  smile: 0,
};

/**
 * What an action is judged on, in the server's units (server/features/vision/vision-engine.ts): degrees
 * of head pose, yaw < 0 the person's own left and pitch < 0 looking up; the more open eye and the smile
 * from 0 to 1, null where nothing measured them.
 */
export interface ActionMeasures {
  yaw: number;
  pitch: number;
  eyesOpen: number | null;
  smile: number | null;
}

/**
 * The one number `action` is judged on, signed so that larger is more performed (`-yaw` for a left
 * turn): the same for the server and the widget, so both compare the same quantity. Null where it was not
 * measured, or for an action this code does not know.
 *
 * @example
 * actionSignal('turn_left', { yaw: -24, pitch: 2, eyesOpen: 0.9, smile: 0.1 }) // 24
 */
export function actionSignal(action: string, face: ActionMeasures): number | null {
  switch (action) {
    case 'turn_left':
      return -face.yaw;
    case 'turn_right':
      return face.yaw;
    case 'look_up':
      return -face.pitch;
    case 'blink':
      return face.eyesOpen === null ? null : -face.eyesOpen;
    case 'smile':
      return face.smile;
    default:
      return null;
  }
}

/** Who judges: the widget before it sends the frames, or the server when they arrive. */
export type ContrastJudge = 'device' | 'server';

/**
 * Whether an action's measure (its signal: larger is more performed, e.g. `-yaw` for a left turn) stands
 * out from the least-performing of the other frames' signals for that action. With no other frame there
 * is nothing to compare, and it does; an action this code does not know is left to the server (true).
 *
 * @example
 * standsOut('turn_left', 24, [3, -2], 'server') // true: 26 above the right-facing frame
 * standsOut('turn_left', 17, [11, 12], 'device') // false: 6 above the least turned other frame
 */
export function standsOut(
  action: string,
  signal: number,
  others: readonly number[],
  judge: ContrastJudge,
): boolean {
  if (others.length === 0 || !(action in ACTION_CONTRAST)) return true;
  const known = action as KnownAction;
  const margin = judge === 'device' ? DEVICE_CONTRAST_MARGIN[known] : 0;
  return signal - Math.min(...others) >= ACTION_CONTRAST[known] + margin;
}
