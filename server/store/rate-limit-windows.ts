import type { Logger } from '../logger.ts';
import {
  batchedRateLimitCounter,
  type RateLimitCounter,
  type RateLimitWindows,
} from '../http/rate-limit-counter.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * Rate-limit windows in the database, shared by every instance on it: one atomic upsert adds a number of
 * hits to a window's row and returns its new count, so two instances never both let the last request
 * through. Finished windows are deleted opportunistically: the first write of each new window in a
 * process deletes every window that has ended (several instances doing so at once only repeat a delete).
 */
export function databaseRateLimitWindows(sql: SqlClient, logger?: Logger): RateLimitWindows {
  let sweptBeforeMs = 0;

  async function deleteFinishedWindows(nowMs: number): Promise<void> {
    if (nowMs <= sweptBeforeMs) return;
    sweptBeforeMs = nowMs;
    try {
      await sql.query('delete from rate_limit_windows where expires_at <= $1', [new Date(nowMs)]);
    } catch (error) {
      // Cleanup only: the limit itself was counted; the next window's first write tries again.
      logger?.error('rate-limit window cleanup failed', {
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  }

  return {
    async add(bucket, windowStart, windowMs, hits) {
      const rows = await sql.query<{ hits: number }>(
        `insert into rate_limit_windows (bucket, window_start, hits, expires_at) values ($1, $2, $4, $3)
         on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + $4
         returning hits`,
        [bucket, windowStart, new Date(windowStart.getTime() + windowMs), hits],
      );
      await deleteFinishedWindows(windowStart.getTime());
      return Number(rows[0]?.hits ?? hits);
    },
  };
}

/**
 * The counter every instance on one database shares: each hit is written at once where a limit is close
 * or unknown, and in batches while a limit is far (see batchedRateLimitCounter for the bounds).
 */
export function databaseRateLimitCounter(sql: SqlClient, logger?: Logger): RateLimitCounter {
  return batchedRateLimitCounter(databaseRateLimitWindows(sql, logger), { logger });
}

/** The counter a host gets when it does not inject one: the shared one, on the app's database. */
export function defaultRateLimitCounter(deps: {
  db: SqlClient;
  logger?: Logger;
  rateLimitCounter?: RateLimitCounter;
}): RateLimitCounter {
  return deps.rateLimitCounter ?? databaseRateLimitCounter(deps.db, deps.logger);
}
