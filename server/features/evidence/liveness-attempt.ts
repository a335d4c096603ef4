import type { LivenessAction } from '../../domain/liveness-challenge.ts';
import type { ActionOutcome, LivenessJudgement } from '../../domain/liveness-judgement.ts';
import type { FaceAnalysis, VisionEngine } from '../vision/vision-engine.ts';
import type { ImageAnalysis } from './image-analyzer.ts';
import {
  evaluateLivenessFrames,
  type LivenessChallenge,
  type LivenessRetryReason,
} from './liveness-frames.ts';
import { observeLivenessFrames } from './observe-liveness-frames.ts';

/** Why the models sent an attempt back (stored as the challenge's `retry_reason`). */
export type LivenessJudgementRetryReason =
  | 'no_face'
  | 'several_faces'
  | 'action_not_performed'
  | 'face_changed';

export type LivenessAttemptRetryReason = LivenessRetryReason | LivenessJudgementRetryReason;

/** Each reason once; a record so the compiler says when a new reason is missing here. */
const EVERY_RETRY_REASON: Readonly<Record<LivenessAttemptRetryReason, true>> = {
  challenge_expired: true,
  frame_count_mismatch: true,
  frame_undecodable: true,
  frames_repeated: true,
  no_face: true,
  several_faces: true,
  face_changed: true,
  action_not_performed: true,
};

/**
 * Every `reason` a retry answer may carry (API.md §9): clients word it in their own language, so the
 * list is part of the contract.
 */
export const LIVENESS_RETRY_REASONS = Object.keys(EVERY_RETRY_REASON) as LivenessAttemptRetryReason[];

/** The verdict on one attempt: the cheap gates first, then, when an engine is configured, the models. */
export interface LivenessAttemptVerdict {
  status: 'accepted' | 'retry';
  /** Null when accepted. */
  reason: LivenessAttemptRetryReason | null;
  /** The action that was not seen, for `action_not_performed`. */
  action: LivenessAction | null;
  /** What the models judged; null when none ran (no engine, or a cheap gate answered first). */
  judgement: LivenessJudgement | null;
  /** The models' analysis per frame, in order; empty when none ran. */
  analyses: readonly FaceAnalysis[];
  /** Wall time of each frame's analysis, ms; empty when none ran. */
  durationsMs: readonly number[];
}

const RETRY_REASON_OF: Readonly<Record<Exclude<ActionOutcome, 'performed'>, LivenessJudgementRetryReason>> = {
  no_face: 'no_face',
  several_faces: 'several_faces',
  not_performed: 'action_not_performed',
  face_changed: 'face_changed',
};

/**
 * Judges one liveness attempt. The cheap gates of `evaluateLivenessFrames` (expiry, frame count,
 * decodable, no repeated picture) answer first, so no model runs on an attempt that is already lost;
 * then, with an engine, every frame is analysed and `judgeLiveness` decides: one face, the same person
 * throughout, each action performed. Without an engine an attempt that passes the gates is accepted
 * and the review's liveness check stays inconclusive (`model_unavailable`).
 *
 * Runs the models: call it before the write transaction, never while holding a lock.
 *
 * @example
 * const verdict = await judgeLivenessAttempt(deps.vision, challenge, frames, analyses, receivedAt);
 * if (verdict.status === 'retry') answer(livenessRetryMessage(verdict));
 */
export async function judgeLivenessAttempt(
  vision: VisionEngine | undefined,
  challenge: LivenessChallenge & { actions: readonly LivenessAction[] },
  frames: readonly Uint8Array[],
  images: readonly (ImageAnalysis | null)[],
  receivedAt: Date,
): Promise<LivenessAttemptVerdict> {
  const none = { judgement: null, analyses: [], durationsMs: [], action: null };
  const gates = evaluateLivenessFrames(challenge, images, receivedAt);
  if (gates.status === 'retry') return { status: 'retry', reason: gates.reason, ...none };
  if (!vision) return { status: 'accepted', reason: null, ...none };
  const observed = await observeLivenessFrames(vision, challenge.actions, frames);
  if (observed.status === 'undecodable') return { status: 'retry', reason: 'frame_undecodable', ...none };
  const { judgement, analyses, durationsMs } = observed;
  if (judgement.accepted || judgement.failure === null) {
    return { status: 'accepted', reason: null, action: null, judgement, analyses, durationsMs };
  }
  const failing = judgement.actions.find((verdict) => verdict.outcome === judgement.failure);
  return {
    status: 'retry',
    reason: RETRY_REASON_OF[judgement.failure],
    action: failing?.action ?? null,
    judgement,
    analyses,
    durationsMs,
  };
}

/** How each action reads in "we did not see you …". */
const ACTION_WORDING: Readonly<Record<LivenessAction, string>> = {
  turn_left: 'turn your head to the left',
  turn_right: 'turn your head to the right',
  look_up: 'look up',
  smile: 'smile',
  blink: 'blink',
};

const RETRY_MESSAGES: Readonly<Record<Exclude<LivenessAttemptRetryReason, 'action_not_performed'>, string>> =
  {
    challenge_expired: 'That took too long. Let’s try again.',
    frame_count_mismatch: 'Some pictures are missing. Let’s try again.',
    frame_undecodable: 'We could not read the pictures. Let’s try again.',
    frames_repeated: 'We need to see each movement. Follow the prompts and try again.',
    no_face: 'We could not see your face. Keep your whole face in the frame, in good light, and try again.',
    several_faces: 'We saw more than one person. Make sure only you are in the picture and try again.',
    face_changed: 'The same person must do every movement. Please try again.',
  };

/**
 * The end-user's message for a retry: what went wrong and what to do, kindly, without blame.
 *
 * @example
 * livenessRetryMessage({ reason: 'action_not_performed', action: 'turn_left' })
 * // 'We did not see you turn your head to the left. Follow each prompt and try again.'
 */
export function livenessRetryMessage(
  verdict: Pick<LivenessAttemptVerdict, 'reason' | 'action'>,
): string | undefined {
  if (verdict.reason === null) return undefined;
  if (verdict.reason === 'action_not_performed') {
    const what = verdict.action ? ACTION_WORDING[verdict.action] : 'do every movement';
    return `We did not see you ${what}. Follow each prompt and try again.`;
  }
  return RETRY_MESSAGES[verdict.reason];
}
