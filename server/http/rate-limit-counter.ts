/**
 * Where rate-limit counts live. The database counter (server/store/rate-limit-windows.ts) is shared by
 * every instance on one database and is the default; the memory counter below is for hosts that are the
 * only instance by construction (the browser mock), where a query per request buys nothing.
 */
export interface RateLimitCounter {
  /**
   * Counts one request in `bucket`'s window that starts at `windowStart` and lasts `windowMs`, and
   * answers how many the window holds now, this one included.
   */
  hit(bucket: string, windowStart: Date, windowMs: number): Promise<number>;
}

/** A fixed window aligned to multiples of its length, so every instance agrees on its start. */
export interface FixedWindow {
  start: Date;
  /** Whole seconds until the next window (at least 1), for `retry-after` and `ratelimit`. */
  resetSeconds: number;
}

export function fixedWindow(nowMs: number, windowMs: number): FixedWindow {
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  return {
    start: new Date(startMs),
    resetSeconds: Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000)),
  };
}

/** Counts in this process only: right for a single instance, per-instance shares behind several. */
export function memoryRateLimitCounter(): RateLimitCounter {
  const windows = new Map<string, { startMs: number; hits: number }>();
  return {
    async hit(bucket, windowStart) {
      const startMs = windowStart.getTime();
      let window = windows.get(bucket);
      if (!window || window.startMs !== startMs) {
        if (windows.size > 50_000) windows.clear(); // a bound, not an expected path
        window = { startMs, hits: 0 };
        windows.set(bucket, window);
      }
      window.hits += 1;
      return window.hits;
    },
  };
}
