import type { Logger } from '../logger.ts';

/**
 * Where rate-limit counts live. The database counter (server/store/rate-limit-windows.ts) is shared by
 * every instance on one database and is the default; the memory counter below is for hosts that are the
 * only instance by construction (the browser mock), where a query per request buys nothing.
 */
export interface RateLimitCounter {
  /**
   * Counts one request in `bucket`'s window that starts at `windowStart` and lasts `windowMs`, and
   * answers how many the window holds now, this one included. `limit` (the most the window may hold)
   * lets a shared counter write in batches while the count is far below it; without one every hit is
   * counted exactly.
   */
  hit(bucket: string, windowStart: Date, windowMs: number, limit?: number): Promise<number>;
}

/** Shared storage of windows: adds `hits` to a window and answers its total over every instance. */
export interface RateLimitWindows {
  add(bucket: string, windowStart: Date, windowMs: number, hits: number): Promise<number>;
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

/** The share of a limit an instance may count in memory before writing (and how close to it it stops). */
export const BATCH_SHARE_OF_LIMIT = 0.1;
/** The longest a batched hit waits in memory before it is written. */
export const BATCH_FLUSH_MS = 1000;

interface Tally {
  windowStart: Date;
  windowMs: number;
  /** The shared total as the last write answered it (this instance's written hits included). */
  known: number;
  /** Hits counted here whose write has not answered yet. */
  writing: number;
  /** Hits counted here and not yet written. */
  pending: number;
  /** Exact hits waiting for the bucket's earlier writes before their own. */
  queued: number;
  /** The bucket's writes from this process, one after the other (see `serially`). */
  queue: Promise<void>;
}

/**
 * A shared counter that writes in batches while the limit is far (issue #13: the write per request was
 * one of a request's two statements). With `share` = `BATCH_SHARE_OF_LIMIT` of the limit (rounded down):
 *
 * - while this instance's view of the window (the last shared total plus its own hits not in it) stays
 *   at least `share` below the limit, a hit is only counted in memory and written with the others of its
 *   bucket within `BATCH_FLUSH_MS`, or at once when `share` of them have gathered;
 * - from there on, and for every limit below 1 / `BATCH_SHARE_OF_LIMIT` (share 0), or a hit without a
 *   limit, every hit is written at once together with any unwritten ones, and the answer is the shared
 *   total: exact, as with one write per request.
 *
 * A bucket's writes from one process go one after the other, so when a write answers, every earlier hit of
 * this process is in the shared total it answers: an exact hit is answered that total, its own place in
 * the window, never a sum that counts a hit twice (answering the larger of the total and the hits seen in
 * memory counted hits whose write had answered but not yet returned again: with 8 allowed, two instances
 * hit at once let 7 through).
 *
 * So one instance is exact, and with several the window can admit at most about (instances − 1) × `share`
 * more than the limit: the hits other instances hold unwritten (or whose write is still under way) when
 * this one reaches it. Counts a process
 * holds when it stops or crashes (at most one flush interval's worth) are not written: the window
 * under-counts by them, never over. A failed batch write is logged and retried with the next one; only
 * an exact write fails the request, as before.
 */
export function batchedRateLimitCounter(
  windows: RateLimitWindows,
  options: { logger?: Logger | undefined; flushMs?: number } = {},
): RateLimitCounter {
  const flushMs = options.flushMs ?? BATCH_FLUSH_MS;
  const tallies = new Map<string, Tally>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The latest window start a hit named: "now" as the callers' clock sees it (tests move theirs). */
  let latestStartMs = 0;

  /** Runs `work` after the bucket's writes before it from this process have answered. */
  function serially<T>(tally: Tally, work: () => Promise<T>): Promise<T> {
    const run = tally.queue.then(work);
    tally.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Writes `own` hits (an exact hit, or none) with every hit still pending, and answers the total. */
  async function write(bucket: string, tally: Tally, own: number): Promise<number> {
    const hits = own + tally.pending;
    tally.pending = 0;
    tally.writing += hits;
    try {
      const total = await windows.add(bucket, tally.windowStart, tally.windowMs, hits);
      tally.known = Math.max(tally.known, total);
      return total;
    } catch (error) {
      tally.pending += hits;
      throw error;
    } finally {
      tally.writing -= hits;
    }
  }

  function flushLater(): void {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flushAll();
    }, flushMs);
    // A pending batch must not keep a process alive that has nothing else to do.
    (timer as { unref?: () => void }).unref?.();
  }

  async function flushBucket(bucket: string, tally: Tally): Promise<void> {
    if (tally.pending === 0) return;
    try {
      await serially(tally, () => (tally.pending === 0 ? Promise.resolve(0) : write(bucket, tally, 0)));
    } catch (error) {
      options.logger?.error('rate-limit batch write failed', {
        error: error instanceof Error ? error.name : 'unknown',
      });
      flushLater();
    }
  }

  async function flushAll(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const [bucket, tally] of tallies) {
      // A window that has ended limits nothing any more: its unwritten hits are dropped with it.
      if (tally.windowStart.getTime() + tally.windowMs <= latestStartMs) tallies.delete(bucket);
      else if (tally.pending > 0) writes.push(flushBucket(bucket, tally));
    }
    await Promise.all(writes);
  }

  return {
    async hit(bucket, windowStart, windowMs, limit) {
      latestStartMs = Math.max(latestStartMs, windowStart.getTime());
      let tally = tallies.get(bucket);
      if (!tally || tally.windowStart.getTime() !== windowStart.getTime()) {
        // Unwritten hits of an ended window no longer limit anything.
        if (tallies.size > 50_000) tallies.clear(); // a bound, not an expected path
        tally = {
          windowStart,
          windowMs,
          known: 0,
          writing: 0,
          pending: 0,
          queued: 0,
          queue: Promise.resolve(),
        };
        tallies.set(bucket, tally);
      }
      const share = limit === undefined ? 0 : Math.floor(limit * BATCH_SHARE_OF_LIMIT);
      // Hits on their way to the database count too: `known` catches up only when their write answers (a
      // hit may be counted twice here, which only makes the exact path start a little early).
      const seen = tally.known + tally.writing + tally.queued + tally.pending + 1;
      if (share < 1 || limit === undefined || seen > limit - share) {
        // Written after this process's earlier writes of the bucket have answered, with every hit still
        // pending: the total it answers holds all of them and this hit's place in the window.
        const current = tally;
        current.queued += 1;
        return serially(current, () => {
          current.queued -= 1;
          return write(bucket, current, 1);
        });
      }
      tally.pending += 1;
      if (tally.pending >= share) void flushBucket(bucket, tally);
      else flushLater();
      return seen;
    },
  };
}
