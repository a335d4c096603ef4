import type { LivenessAction } from '../api/verify-api.ts';
import type { MessageKey } from '../i18n/en.ts';
import type { GuidanceIssue } from '../liveness/face-guidance.ts';

const PROMPTS: Record<string, MessageKey> = {
  turn_left: 'actionTurnLeft',
  turn_right: 'actionTurnRight',
  smile: 'actionSmile',
  blink: 'actionBlink',
  look_up: 'actionLookUp',
  look_down: 'actionLookDown',
  nod: 'actionNod',
  look_straight: 'actionLookStraight',
};

/** The prompt for a server challenge action; an action this widget does not know gets a neutral one. */
export function actionPrompt(action: LivenessAction): MessageKey {
  return knownActionPrompt(action) ?? 'actionLookStraight';
}

/** The prompt for an action this widget knows, else undefined. */
export function knownActionPrompt(action: LivenessAction): MessageKey | undefined {
  return PROMPTS[action];
}

/** What to tell the end-user for each issue the on-device face guidance reports. */
export const GUIDANCE_TEXT: Record<GuidanceIssue, MessageKey> = {
  no_face: 'faceNone',
  several_faces: 'faceSeveral',
  move_closer: 'faceMoveCloser',
  hold_still: 'faceHoldStill',
};
