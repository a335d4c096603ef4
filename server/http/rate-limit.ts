import { createMiddleware } from 'hono/factory';
import type { AppDeps } from '../app-deps.ts';
import { ApiError } from '../errors/api-error.ts';
import type { AppEnv } from './app-env.ts';

const WINDOW_SECONDS = 60;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Window {
  startedMs: number;
  used: number;
}

/**
 * Fixed 60-second windows per credential and kind (API.md §10), with the IETF `RateLimit-Policy` and
 * `RateLimit` headers on every response. Counts are per process: behind several instances each enforces
 * its own share, which errs on the generous side rather than ever blocking a legitimate burst twice.
 */
export function createRateLimiter(deps: AppDeps) {
  const windows = new Map<string, Window>();

  function quota(kind: 'read' | 'write', environment: string): number {
    const base = kind === 'read' ? deps.config.rateLimits.reads : deps.config.rateLimits.writes;
    return environment === 'sandbox' ? Math.max(1, Math.floor(base / 4)) : base;
  }

  return createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.get('principal');
    const kind = READ_METHODS.has(c.req.method) ? 'read' : 'write';
    const limit = quota(kind, principal.environment);
    const nowMs = deps.clock.now().getTime();
    const key = `${principal.credentialId}:${principal.environment}:${kind}`;
    let window = windows.get(key);
    if (!window || nowMs - window.startedMs >= WINDOW_SECONDS * 1000) {
      if (windows.size > 50_000) windows.clear(); // a bound, not an expected path
      window = { startedMs: nowMs, used: 0 };
      windows.set(key, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.startedMs + WINDOW_SECONDS * 1000 - nowMs) / 1000));
    const policy = `"${kind}";q=${limit};w=${WINDOW_SECONDS}`;
    if (window.used >= limit) {
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
    window.used += 1;
    await next();
    c.res.headers.set('ratelimit-policy', policy);
    c.res.headers.set('ratelimit', `"${kind}";r=${limit - window.used};t=${resetSeconds}`);
  });
}
