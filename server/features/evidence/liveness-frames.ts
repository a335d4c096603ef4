import type { ImageAnalysis } from './image-analyzer.ts';
import { hammingDistance } from './perceptual-hash.ts';

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
 * Two frames whose perceptual hashes differ in at most this many of 64 bits count as the same
 * picture. Measured on 640×480 synthetic captures: re-encoding (JPEG q20, WebP), a 20 % resize, a
 * brightness change or a slight blur move the pHash by 0 bits; shifting the scene by 3 % of the
 * width moves it 8 bits, by 6 % 14 bits. 3 catches a replayed or re-encoded image with margin while
 * a head turn between two actions passes. A subject who does not move at all also reads as repeated,
 * which is intended: every action must be visible. This stops the cheap replay (one photo for every
 * action), not a crafted video: it is a plausibility gate in front of the real liveness and
 * face-match checks.
 */
export const MAX_SAME_FRAME_DISTANCE = 3;

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
  for (let i = 0; i < analyses.length; i++) {
    for (let j = i + 1; j < analyses.length; j++) {
      const distance = hammingDistance(analyses[i]!.perceptualHash, analyses[j]!.perceptualHash);
      if (distance <= MAX_SAME_FRAME_DISTANCE)
        return { status: 'retry', reason: 'frames_repeated', frames: [i, j] };
    }
  }
  return { status: 'accepted' };
}
