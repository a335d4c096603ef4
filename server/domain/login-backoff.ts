/**
 * Growing delays between failed console logins (issue 24): each failure in a scope (an account from one
 * network, an account from anywhere, a network against any account) makes the next attempt in that scope
 * wait longer, doubling from `baseMs` after `free` failures up to `capMs`. Nothing is ever locked: the
 * wait is bounded, and a scope the caller is not in does not slow the caller at all.
 */
export interface BackoffPolicy {
  /** Failures in the window before any delay: typos cost nothing. */
  free: number;
  /** The delay after the first failure beyond `free`; it doubles with each further one. */
  baseMs: number;
  /** The longest wait, however many failures. */
  capMs: number;
}

/** The wait after `failures` recent failures in one scope. */
export function backoffDelayMs(failures: number, policy: BackoffPolicy): number {
  if (failures <= policy.free) return 0;
  // 2^30 already exceeds any cap in milliseconds; the clamp keeps the power finite.
  const doublings = Math.min(failures - policy.free - 1, 30);
  return Math.min(policy.capMs, policy.baseMs * 2 ** doublings);
}

/** When a scope with `failures` failures, the last at `lastFailureAt`, may try again; null: now. */
export function nextAttemptAt(
  failures: number,
  lastFailureAt: Date | null,
  policy: BackoffPolicy,
): Date | null {
  const delay = backoffDelayMs(failures, policy);
  if (delay === 0 || lastFailureAt === null) return null;
  return new Date(lastFailureAt.getTime() + delay);
}
