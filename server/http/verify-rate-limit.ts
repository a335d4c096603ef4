import type { AppDeps } from '../app-deps.ts';
import { ApiError } from '../errors/api-error.ts';
import { fixedWindow } from './rate-limit-counter.ts';
import { defaultRateLimitCounter } from '../store/rate-limit-windows.ts';

/** Per session and 60 s: far above what a person capturing documents needs, far below scripted abuse. */
export const VERIFY_RATE_LIMITS = { read: 120, write: 40 } as const;
const WINDOW_MS = 60_000;

/**
 * Fixed 60-second windows per session and kind, counted like the tenant limiter (by default in the
 * database, shared by all instances): the end-user endpoints have no API key, so the session is the
 * unit. Throws 429 `rate_limited` with `retry-after`.
 */
export function createVerifyRateLimiter(deps: AppDeps) {
  const counter = defaultRateLimitCounter(deps);
  return async (sessionId: string, kind: 'read' | 'write', nowMs: number): Promise<void> => {
    const window = fixedWindow(nowMs, WINDOW_MS);
    const used = await counter.hit(`verify:${sessionId}:${kind}`, window.start, WINDOW_MS);
    if (used > VERIFY_RATE_LIMITS[kind]) {
      const retryAfter = window.resetSeconds;
      throw new ApiError('rate_limited', `Too many requests; please wait ${retryAfter} seconds.`, {
        headers: { 'retry-after': String(retryAfter) },
        extensions: { user_message: 'Too many attempts in a short time. Please wait a moment.' },
      });
    }
  };
}

/** Wrong verify tokens one client address may send per window before it is refused unread. */
export const INVALID_VERIFY_TOKEN_LIMIT = 30;
const INVALID_TOKEN_WINDOW_MS = 5 * 60_000;

/**
 * Throttles wrong verify tokens per client address (the caller's key: verify-auth.ts counts IPv6 by its
 * /48, so one host cannot spread its guesses over its own block). Tokens carry 160 bits, so guessing one
 * is hopeless; what this stops is a script making us look tokens up by the thousand.
 *
 * `refuseIfThrottled` runs before any token lookup and costs no query: it reads what this instance
 * learned when it counted the address's last wrong token. `countInvalid` counts a wrong token in the
 * shared window (every instance on the database) and, past the limit, refuses and remembers the address
 * until the window ends. Another instance therefore looks up at most one more wrong token from that
 * address before it refuses too. Both throw 429 `rate_limited` with `retry-after`.
 */
export function createInvalidVerifyTokenThrottle(deps: AppDeps) {
  const counter = defaultRateLimitCounter(deps);
  /** Address prefix → the end of the window in which it went past the limit. */
  const refusedUntil = new Map<string, number>();

  const refusal = (retryAfterSeconds: number) =>
    new ApiError('rate_limited', `Too many invalid links; please wait ${retryAfterSeconds} seconds.`, {
      headers: { 'retry-after': String(retryAfterSeconds) },
      extensions: { user_message: 'Too many attempts in a short time. Please wait a moment.' },
    });

  return {
    refuseIfThrottled(address: string | null, nowMs: number): void {
      if (address === null) return;
      const until = refusedUntil.get(address);
      if (until === undefined) return;
      if (until <= nowMs) {
        refusedUntil.delete(address);
        return;
      }
      throw refusal(Math.max(1, Math.ceil((until - nowMs) / 1000)));
    },
    async countInvalid(address: string | null, nowMs: number): Promise<void> {
      if (address === null) return;
      const window = fixedWindow(nowMs, INVALID_TOKEN_WINDOW_MS);
      const used = await counter.hit(
        `verify-invalid-token:${address}`,
        window.start,
        INVALID_TOKEN_WINDOW_MS,
        INVALID_VERIFY_TOKEN_LIMIT,
      );
      if (used > INVALID_VERIFY_TOKEN_LIMIT) {
        // A bound on memory under a spread-out attack; dropping entries only costs one lookup each.
        if (refusedUntil.size > 10_000) refusedUntil.clear();
        refusedUntil.set(address, window.start.getTime() + INVALID_TOKEN_WINDOW_MS);
        throw refusal(window.resetSeconds);
      }
    },
  };
}
