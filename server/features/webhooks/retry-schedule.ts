import type { Environment } from '../../domain/api-key-format.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * API.md §8: attempt n waits RETRY_DELAYS_MS[n - 1] after attempt n - 1 failed (the first goes at once).
 * Ten attempts span about 3.5 days.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** ±15 %: endpoints that failed together (an outage) are not retried in one burst. */
export const JITTER = 0.15;

/** The sandbox stops after the 2 h retry: nobody waits days for a test endpoint. */
const SANDBOX_LAST_DELAY_MS = 2 * HOUR;

/** The most automatic attempts a delivery gets in an environment. */
export function maxAttempts(environment: Environment): number {
  return environment === 'sandbox'
    ? RETRY_DELAYS_MS.filter((delay) => delay <= SANDBOX_LAST_DELAY_MS).length
    : RETRY_DELAYS_MS.length;
}

/**
 * Parses `retry-after` (delay seconds or an HTTP date) into milliseconds from `now`; null when absent or
 * malformed.
 */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}

/**
 * How long to wait before the next attempt after `attemptsMade` attempts failed, or null when the
 * schedule is used up. A `retry-after` (429/503) is honoured by never coming back sooner than it asks,
 * capped at the longest step of the schedule.
 *
 * @example
 * nextRetryDelay(1, 'production', { random: () => 0.5 }) // 5000 (no jitter at 0.5)
 */
export function nextRetryDelay(
  attemptsMade: number,
  environment: Environment,
  options: { random: () => number; retryAfterMs?: number | null },
): number | null {
  if (attemptsMade >= maxAttempts(environment)) return null;
  const base = RETRY_DELAYS_MS[attemptsMade] as number;
  const jittered = Math.round(base * (1 + (options.random() * 2 - 1) * JITTER));
  const longest = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] as number;
  const asked = options.retryAfterMs == null ? 0 : Math.min(options.retryAfterMs, longest);
  return Math.max(jittered, asked);
}
