import type { Logger } from '../app-deps.ts';
import type { RateLimitCounter } from '../http/rate-limit-counter.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * Rate-limit counts in the database, shared by every instance on it: one atomic upsert per request
 * increments the window's row and returns its count, so two instances never both let the last request
 * through. Finished windows are deleted opportunistically: the first request of each new window in a
 * process deletes every window that has ended (several instances doing so at once only repeat a delete).
 */
export function databaseRateLimitCounter(sql: SqlClient, logger?: Logger): RateLimitCounter {
  let sweptBeforeMs = 0;

  async function deleteFinishedWindows(nowMs: number): Promise<void> {
    if (nowMs <= sweptBeforeMs) return;
    sweptBeforeMs = nowMs;
    try {
      await sql.query('delete from rate_limit_windows where expires_at <= $1', [new Date(nowMs)]);
    } catch (error) {
      // Cleanup only: the limit itself was counted; the next window's first request tries again.
      logger?.error('rate-limit window cleanup failed', {
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  }

  return {
    async hit(bucket, windowStart, windowMs) {
      const rows = await sql.query<{ hits: number }>(
        `insert into rate_limit_windows (bucket, window_start, hits, expires_at) values ($1, $2, 1, $3)
         on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
         returning hits`,
        [bucket, windowStart, new Date(windowStart.getTime() + windowMs)],
      );
      await deleteFinishedWindows(windowStart.getTime());
      return Number(rows[0]?.hits ?? 1);
    },
  };
}

/** The counter a host gets when it does not inject one: the shared one, on the app's database. */
export function defaultRateLimitCounter(deps: {
  db: SqlClient;
  logger?: Logger;
  rateLimitCounter?: RateLimitCounter;
}): RateLimitCounter {
  return deps.rateLimitCounter ?? databaseRateLimitCounter(deps.db, deps.logger);
}
