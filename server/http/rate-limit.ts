import type { Context } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import { ApiError } from '../errors/api-error.ts';
import { defaultRateLimitCounter } from '../store/rate-limit-windows.ts';
import type { AppEnv } from './app-env.ts';
import { fixedWindow } from './rate-limit-counter.ts';

const WINDOW_SECONDS = 60;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Fixed 60-second windows per credential and kind (API.md §10), with the IETF `RateLimit-Policy` and
 * `RateLimit` headers on every response. Counted by `deps.rateLimitCounter`, by default in the database,
 * so all instances on one database enforce one limit together (API.md §11); far below the limit the
 * counts are written in batches (see batchedRateLimitCounter for the bounds). Windows are aligned to whole
 * minutes so every instance agrees on where one starts.
 */
export function createRateLimiter(deps: AppDeps) {
  const counter = defaultRateLimitCounter(deps);

  function quota(kind: 'read' | 'write', environment: string): number {
    const base = kind === 'read' ? deps.config.rateLimits.reads : deps.config.rateLimits.writes;
    return environment === 'sandbox' ? Math.max(1, Math.floor(base / 4)) : base;
  }

  /** Counts this request against its credential's window; throws 429 `rate_limited` past the limit. */
  return async function countRequest(c: Context<AppEnv>): Promise<void> {
    const principal = c.get('principal');
    const kind = READ_METHODS.has(c.req.method) ? 'read' : 'write';
    const limit = quota(kind, principal.environment);
    const window = fixedWindow(deps.clock.now().getTime(), WINDOW_SECONDS * 1000);
    const bucket = `api:${principal.credentialId}:${principal.environment}:${kind}`;
    const used = await counter.hit(bucket, window.start, WINDOW_SECONDS * 1000, limit);
    const resetSeconds = window.resetSeconds;
    const policy = `"${kind}";q=${limit};w=${WINDOW_SECONDS}`;
    if (used > limit) {
      throw new ApiError(
        'rate_limited',
        `More than ${limit} ${kind}s in ${WINDOW_SECONDS} s; retry after ${resetSeconds} s.`,
        {
          headers: {
            'retry-after': String(resetSeconds),
            'ratelimit-policy': policy,
            ratelimit: `"${kind}";r=0;t=${resetSeconds}`,
          },
        },
      );
    }
    // Owed by the response, whoever builds it (see request-envelope.ts).
    const owed = c.get('responseHeaders');
    owed['ratelimit-policy'] = policy;
    owed['ratelimit'] = `"${kind}";r=${limit - used};t=${resetSeconds}`;
  };
}

export type CountRequest = ReturnType<typeof createRateLimiter>;
