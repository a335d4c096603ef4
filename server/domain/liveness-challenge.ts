/** The actions a liveness challenge can ask for (API.md §9). */
export const LIVENESS_ACTIONS = ['turn_left', 'turn_right', 'look_up', 'smile', 'blink'] as const;
export type LivenessAction = (typeof LIVENESS_ACTIONS)[number];

/** Actions per challenge, one frame each. */
export const LIVENESS_ACTION_COUNT = 3;

/** How long a challenge's nonce is accepted: long enough to follow three prompts, too short to stage a replay. */
export const LIVENESS_CHALLENGE_LIFETIME_MS = 2 * 60 * 1000;

/**
 * A random sequence of distinct actions, drawn with a uniform shuffle from a cryptographic source, so
 * the next challenge cannot be predicted and a recorded answer to an earlier one does not fit.
 *
 * @example
 * drawLivenessActions() // ['smile', 'turn_left', 'look_up']
 */
export function drawLivenessActions(
  random: (bound: number) => number = secureRandomBelow,
  count = LIVENESS_ACTION_COUNT,
): LivenessAction[] {
  const pool = [...LIVENESS_ACTIONS];
  // Fisher–Yates on the first `count` positions.
  for (let i = 0; i < count; i++) {
    const j = i + random(pool.length - i);
    [pool[i], pool[j]] = [pool[j] as LivenessAction, pool[i] as LivenessAction];
  }
  return pool.slice(0, count);
}

/** A uniform integer in [0, bound) from Web Crypto, without modulo bias. */
export function secureRandomBelow(bound: number): number {
  const limit = Math.floor(0x1_0000_0000 / bound) * bound;
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    const value = buffer[0] as number;
    if (value < limit) return value % bound;
  }
}
