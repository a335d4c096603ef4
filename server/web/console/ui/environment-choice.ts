import type { ConsoleApi } from '../api/console-api.ts';
import type { Environment } from '../api/console-api.ts';
import { ENVIRONMENTS } from '../api/lists.ts';
import { readPreference, writePreference } from './preferences.ts';

/** The localStorage key of a user's last environment: per user, so a shared browser keeps each one's. */
function userKey(userId: string): string {
  return `environment-${userId}`;
}

function asEnvironment(value: string | null): Environment | null {
  return value !== null && (ENVIRONMENTS as readonly string[]).includes(value)
    ? (value as Environment)
    : null;
}

/** Remembers the environment a user picked, for this tab and for their next visit. */
export function rememberEnvironment(userId: string | undefined, environment: Environment): void {
  writePreference('session', 'environment', environment);
  if (userId) writePreference('local', userKey(userId), environment);
}

/**
 * The environment the console opens in: this tab's choice, else the user's last one, else production,
 * unless production has no session at all (a new tenant, whose sessions are all sandbox ones: issue 25's
 * "the queue is empty" while seven wait in sandbox).
 *
 * @example
 *   this.environment = await initialEnvironment(this.api, me.user.user_id);
 */
export async function initialEnvironment(
  api: ConsoleApi,
  userId: string,
  canRead: boolean,
): Promise<Environment> {
  const chosen =
    asEnvironment(readPreference('session', 'environment')) ??
    asEnvironment(readPreference('local', userKey(userId)));
  if (chosen) return chosen;
  if (!canRead) return 'production';
  try {
    const production = await api.get('/v1/sessions', {
      query: { limit: 1 },
      environment: 'production',
      quiet: true,
    });
    return production.data.length === 0 ? 'sandbox' : 'production';
  } catch {
    return 'production';
  }
}

/** How many sessions wait for review in each environment (the picker shows it), null where unknown. */
export async function waitingCounts(api: ConsoleApi): Promise<Record<Environment, number | null>> {
  const counts = await Promise.all(
    ENVIRONMENTS.map((environment) =>
      api
        .get('/v1/stats', { query: { environment, days: 1 }, environment, quiet: true })
        .then((stats) => stats.review_queue.length)
        .catch(() => null),
    ),
  );
  return Object.fromEntries(ENVIRONMENTS.map((env, index) => [env, counts[index] ?? null])) as Record<
    Environment,
    number | null
  >;
}
