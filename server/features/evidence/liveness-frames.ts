import type { ImageAnalysis } from './image-analyzer.ts';
import { repeatedFramePair } from '../../../src/capture/quality/repeated-frames.ts';

/** What the server issued at `POST /v1/verify/liveness/challenge`. */
export interface LivenessChallenge {
  /** The action sequence, in order; one frame is expected per action. */
  actions: readonly string[];
  /** When the nonce stops being accepted. */
  expiresAt: Date;
}

export type LivenessRetryReason =
  | 'challenge_expired'
  | 'frame_count_mismatch'
  | 'frame_undecodable'
  | 'frames_repeated';

export type LivenessFramesVerdict =
  | { status: 'accepted' }
  | {
      status: 'retry';
      reason: LivenessRetryReason /** Frame positions involved, 0-based. */;
      frames: number[];
    };

/**
 * Checks the frames of one liveness attempt before any face analysis runs. Frames are given in the
 * challenge's action order, `null` where the upload could not be decoded. Checks run cheapest first
 * and the first failure is returned.
 *
 * @example
 * evaluateLivenessFrames(challenge, [frontAnalysis, leftAnalysis], clock.now())
 * // { status: 'accepted' } or { status: 'retry', reason: 'frames_repeated', frames: [0, 1] }
 */
export function evaluateLivenessFrames(
  challenge: LivenessChallenge,
  frames: readonly (ImageAnalysis | null)[],
  receivedAt: Date,
): LivenessFramesVerdict {
  // Equal to the expiry still counts: the nonce is valid up to and including `expiresAt`.
  if (receivedAt.getTime() > challenge.expiresAt.getTime()) {
    return { status: 'retry', reason: 'challenge_expired', frames: [] };
  }
  if (frames.length !== challenge.actions.length || frames.length === 0) {
    return { status: 'retry', reason: 'frame_count_mismatch', frames: [] };
  }
  const undecodable = frames.flatMap((frame, index) => (frame === null ? [index] : []));
  if (undecodable.length > 0) return { status: 'retry', reason: 'frame_undecodable', frames: undecodable };
  const analyses = frames as readonly ImageAnalysis[];
  const repeated = repeatedFramePair(
    analyses.map((analysis) => analysis.perceptualHash),
    'server',
  );
  if (repeated) return { status: 'retry', reason: 'frames_repeated', frames: repeated };
  return { status: 'accepted' };
}
