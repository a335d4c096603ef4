import type { SqlClient } from '../../store/sql-client.ts';
import { ApiError } from '../../errors/api-error.ts';
import { recentSecondFactorFailures } from '../../store/second-factors.ts';

/** Wrong answers one challenge takes before it closes (the password must then be given again). */
export const MAX_FAILURES_PER_CHALLENGE = 5;
/**
 * Wrong answers per user in the window, across challenges: a guesser who has the password gets 10 tries
 * at a 6-digit code per 15 minutes (a 1 in 100,000 chance), and must give the password again every 5.
 */
export const MAX_FAILURES_PER_USER = 10;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** Refuses with 429 and `retry-after` once the user's recent wrong answers reach the limit. */
export async function refuseIfSecondFactorThrottled(
  sql: SqlClient,
  userId: string,
  now: Date,
): Promise<void> {
  const failures = await recentSecondFactorFailures(sql, userId, new Date(now.getTime() - FAILURE_WINDOW_MS));
  if (failures.count < MAX_FAILURES_PER_USER) return;
  const since = failures.oldest ?? now;
  const retryAfter = Math.max(1, Math.ceil((since.getTime() + FAILURE_WINDOW_MS - now.getTime()) / 1000));
  throw new ApiError(
    'too_many_attempts',
    `Too many wrong codes; try again in ${Math.ceil(retryAfter / 60)} min.`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}
