import type { LivenessResult } from '../api/verify-api.ts';
import type { MessageKey } from '../i18n/en.ts';
import type { Translate } from '../i18n/localize.ts';
import { knownActionPrompt } from './liveness-actions.ts';
import { QUALITY_ISSUE_TEXT } from './quality-issue-text.ts';

/** The widget's wording of each retry `reason` (API.md §9); `action_not_performed` names the action. */
const BY_REASON: Readonly<Record<string, MessageKey>> = {
  challenge_expired: 'livenessRetryTooSlow',
  // Missing and unreadable pictures are the same to the end-user: nothing they did, just try again.
  frame_count_mismatch: 'livenessRetryUnreadable',
  frame_undecodable: 'livenessRetryUnreadable',
  frames_repeated: 'livenessRetryMovements',
  no_face: 'livenessRetryNoFace',
  several_faces: 'livenessRetrySeveralFaces',
  face_changed: 'livenessRetryFaceChanged',
  action_not_performed: 'livenessRetryMovements',
};

/**
 * What to tell the end-user after a liveness retry, in the widget's language. The server's English
 * `user_message` is shown only for a reason this widget does not know (new reasons may come), and the
 * generic retry text when there is neither.
 *
 * @example
 *   livenessRetryText({ status: 'retry', attempts_remaining: 2, reason: 'action_not_performed', action: 'smile' }, t)
 *   // 'We did not see this movement: “Smile”. Follow each prompt and try again.'
 */
export function livenessRetryText(
  result: Pick<LivenessResult, 'reason' | 'action' | 'quality_issues' | 'user_message'>,
  t: Translate,
): string {
  // Frames refused for capture quality: the same words as the document's live guidance (light, stillness).
  // (A camera too small to judge has no such words: the server's advice, to use another camera, stands.)
  const issue = result.reason === 'capture_quality' ? result.quality_issues?.[0] : undefined;
  if (issue === 'too_dark' || issue === 'blurry') return t(QUALITY_ISSUE_TEXT[issue]);
  if (result.reason === 'capture_quality') return result.user_message ?? t('livenessRetry');
  const key = result.reason ? BY_REASON[result.reason] : undefined;
  if (!key) return result.user_message ?? t('livenessRetry');
  if (result.reason === 'action_not_performed' && result.action) {
    // An action this widget has no prompt for is not named: the general advice fits it as well.
    const prompt = knownActionPrompt(result.action);
    if (prompt) return t('livenessRetryAction', { action: t(prompt) });
  }
  return t(key);
}
