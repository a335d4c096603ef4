import type { LivenessAction } from '../liveness-challenge.ts';
import type { LivenessJudgement } from '../liveness-judgement.ts';
import { type Check, type CheckDetails, failed, inconclusive, passed } from './checks.ts';
import type { ReviewInput } from './review-input.ts';

/** The one measure each action is judged on, named for `details`. */
const JUDGED_MEASURE: Readonly<Record<LivenessAction, [measure: string, detail: string]>> = {
  turn_left: ['yaw', 'turn_left_yaw'],
  turn_right: ['yaw', 'turn_right_yaw'],
  look_up: ['pitch', 'look_up_pitch'],
  blink: ['eyes_open', 'blink_eyes_open'],
  smile: ['smile', 'smile_score'],
};

/**
 * Active liveness: the frames answered a fresh nonce-bound challenge, and the face models saw the same
 * single person perform each prompted action (`liveness-judgement.ts`). `passed` only with a judgement
 * whose every action was performed; a rejected attempt, or a judgement that found an action missing, a
 * face missing or changed, is `failed` with `liveness_failed` and the failing outcome. An accepted attempt
 * without a judgement (no engine ran) stays `inconclusive`. Passive anti-spoofing (telling a screen or a
 * mask from skin in a single frame) needs a model we do not have, which `details` says.
 *
 * @example
 * checkLiveness({ ...input, evidence: { liveness: { accepted: false } } }).reason_codes // ['liveness_failed']
 * checkLiveness(withJudgement).details
 * // { actions: ['turn_left', 'smile', 'blink'], outcomes: ['performed', …], turn_left_yaw: -24.1, …,
 * //   passive_antispoofing: 'not_performed', turn_yaw_degrees: 15, … }
 */
export function checkLiveness({ evidence }: ReviewInput): Check {
  const liveness = evidence.liveness;
  if (liveness === undefined) return inconclusive('liveness', 'evidence_missing');
  const judgement = liveness.judgement;
  if (judgement === undefined) {
    if (!liveness.accepted)
      return failed('liveness', ['liveness_failed'], {
        zone: 'not_live',
        zone_reason: 'The liveness attempt was refused before the face models judged it.',
      });
    return inconclusive('liveness', 'model_unavailable', {
      frames_accepted: true,
      zone: 'uncertain',
      zone_reason: 'The frames answered the challenge, but no face model judged them; a person should look.',
    });
  }
  const details = judgementDetails(judgement);
  const performed =
    judgement.accepted &&
    judgement.actions.length > 0 &&
    judgement.actions.every((verdict) => verdict.outcome === 'performed');
  if (liveness.accepted && performed)
    return passed('liveness', {
      zone: 'live',
      zone_reason: `Every prompted action was performed: ${measuredSummary(judgement)}.`,
      ...details,
    });
  const failure = judgement.failure ?? 'attempt_rejected';
  return failed('liveness', ['liveness_failed'], {
    zone: 'not_live',
    zone_reason: notLiveReason(judgement, failure),
    failure,
    ...details,
  });
}

/** Each action with its outcome and measure, e.g. `turn_left performed (yaw -24.1)`. */
function measuredSummary(judgement: LivenessJudgement): string {
  return judgement.actions
    .map((verdict) => {
      const [measure] = JUDGED_MEASURE[verdict.action];
      const value = verdict.measured[measure];
      const shown = value === undefined ? '' : ` (${measure} ${Math.round(value * 100) / 100})`;
      return `${verdict.action} ${verdict.outcome.replaceAll('_', ' ')}${shown}`;
    })
    .join(', ');
}

function notLiveReason(judgement: LivenessJudgement, failure: string): string {
  if (judgement.actions.length === 0)
    return `The liveness attempt failed (${failure.replaceAll('_', ' ')}) before any action was judged.`;
  return `Not every prompted action was performed (${failure.replaceAll('_', ' ')}): ${measuredSummary(judgement)}.`;
}

/** Per-action outcomes and the measure each was judged on: numbers and names, no personal data. */
function judgementDetails(judgement: LivenessJudgement): CheckDetails {
  const details: Record<string, string | number | readonly string[]> = {
    actions: judgement.actions.map((verdict) => verdict.action),
    outcomes: judgement.actions.map((verdict) => verdict.outcome),
  };
  for (const verdict of judgement.actions) {
    const [measure, detail] = JUDGED_MEASURE[verdict.action];
    const value = verdict.measured[measure];
    if (value !== undefined) details[detail] = Math.round(value * 100) / 100;
  }
  return { ...details, passive_antispoofing: 'not_performed', ...judgement.thresholds };
}
