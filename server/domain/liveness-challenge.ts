/** The actions a liveness challenge can ask for (API.md §9). */
export const LIVENESS_ACTIONS = ['turn_left', 'turn_right', 'look_up', 'smile', 'blink'] as const;
export type LivenessAction = (typeof LIVENESS_ACTIONS)[number];

/** Actions per challenge, one frame each. */
export const LIVENESS_ACTION_COUNT = 3;

/** How long a challenge's nonce is accepted: long enough to follow three prompts, too short to stage a replay. */
export const LIVENESS_CHALLENGE_LIFETIME_MS = 2 * 60 * 1000;

/**
 * The actions answered facing the camera. Face match compares the document portrait with the frames that
 * face the camera (within 20°) and holds a session whose frames are all turned for a person, so a
 * challenge without one of these sent a genuine person to manual review: one challenge in ten when any
 * three of the five were drawn.
 */
export const FRONTAL_ACTIONS: readonly LivenessAction[] = ['smile', 'blink'];

/**
 * A random sequence of distinct actions with at least one frontal action, drawn with a uniform shuffle
 * from a cryptographic source, so the next challenge cannot be predicted and a recorded answer to an
 * earlier one does not fit. A draw without a frontal action is drawn again, which keeps every allowed
 * sequence equally likely (54 of the 60 ordered triples).
 *
 * @example
 * drawLivenessActions() // ['smile', 'turn_left', 'look_up']
 */
export function drawLivenessActions(
  random: (bound: number) => number = secureRandomBelow,
  count = LIVENESS_ACTION_COUNT,
): LivenessAction[] {
  for (;;) {
    const pool = [...LIVENESS_ACTIONS];
    // Fisher–Yates on the first `count` positions.
    for (let i = 0; i < count; i++) {
      const j = i + random(pool.length - i);
      [pool[i], pool[j]] = [pool[j] as LivenessAction, pool[i] as LivenessAction];
    }
    const drawn = pool.slice(0, count);
    if (drawn.some((action) => FRONTAL_ACTIONS.includes(action))) return drawn;
  }
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
