import { hammingDistance } from './perceptual-hash.ts';

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
 * How much stricter the widget is than the server's gate: it takes no frame within this many bits more
 * of an earlier one, so a set of frames it sends is never refused as repeated after the JPEG encoding
 * and the server's own decoding (which moved the hash by 0 bits in the measurements above).
 */
export const DEVICE_REPEAT_MARGIN = 2;

/** Who judges: the widget before it takes a frame, or the server when the frames arrive. */
export type RepeatJudge = 'device' | 'server';

/** The largest distance at which two hashes are the same picture, for `judge`. */
function sameFrameDistance(judge: RepeatJudge): number {
  return judge === 'device' ? MAX_SAME_FRAME_DISTANCE + DEVICE_REPEAT_MARGIN : MAX_SAME_FRAME_DISTANCE;
}

/**
 * Whether two frames' perceptual hashes show the same picture, for `judge`: the one judgement of repeated
 * liveness frames, used by the server's gate and by the widget before it keeps a frame.
 *
 * @example
 * sameFrame('c3a51e0f9b2d4871', 'c3a51e0f9b2d4870', 'server') // true
 */
export function sameFrame(a: string, b: string, judge: RepeatJudge): boolean {
  return hammingDistance(a, b) <= sameFrameDistance(judge);
}

/**
 * The first pair of frames (positions, in order) that show the same picture, or null.
 *
 * @example
 * repeatedFramePair(['c3a51e0f9b2d4871', '3c5ae1f064d2b78e', 'c3a51e0f9b2d4870'], 'server') // [0, 2]
 */
export function repeatedFramePair(hashes: readonly string[], judge: RepeatJudge): [number, number] | null {
  for (let i = 0; i < hashes.length; i++) {
    for (let j = i + 1; j < hashes.length; j++) {
      if (sameFrame(hashes[i] as string, hashes[j] as string, judge)) return [i, j];
    }
  }
  return null;
}
