import { ApiError } from '../errors/api-error.ts';

/** Per session and 60 s: far above what a person capturing documents needs, far below scripted abuse. */
export const VERIFY_RATE_LIMITS = { read: 120, write: 40 } as const;
const WINDOW_MS = 60_000;

/**
 * Fixed 60-second windows per session and kind, in process (like the tenant limiter): the end-user
 * endpoints have no API key, so the session is the unit. Throws 429 `rate_limited` with `retry-after`.
 */
export function createVerifyRateLimiter() {
  const windows = new Map<string, { startedMs: number; used: number }>();
  return (sessionId: string, kind: 'read' | 'write', nowMs: number): void => {
    const key = `${sessionId}:${kind}`;
    let window = windows.get(key);
    if (!window || nowMs - window.startedMs >= WINDOW_MS) {
      if (windows.size > 50_000) windows.clear(); // a bound, not an expected path
      window = { startedMs: nowMs, used: 0 };
      windows.set(key, window);
    }
    const limit = VERIFY_RATE_LIMITS[kind];
    if (window.used >= limit) {
      const retryAfter = Math.max(1, Math.ceil((window.startedMs + WINDOW_MS - nowMs) / 1000));
      throw new ApiError('rate_limited', `Too many requests; please wait ${retryAfter} seconds.`, {
        headers: { 'retry-after': String(retryAfter) },
        extensions: { user_message: 'Too many attempts in a short time. Please wait a moment.' },
      });
    }
    window.used += 1;
  };
}
