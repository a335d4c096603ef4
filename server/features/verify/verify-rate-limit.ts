import type { AppDeps } from '../../app-deps.ts';
import { ApiError } from '../../errors/api-error.ts';
import { fixedWindow } from '../../http/rate-limit-counter.ts';
import { defaultRateLimitCounter } from '../../store/rate-limit-windows.ts';

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
