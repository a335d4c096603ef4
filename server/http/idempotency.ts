import { createMiddleware } from 'hono/factory';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './app-env.ts';
import { checkIdempotencyKey, runIdempotently, tenantReplayFailure } from './idempotent-replay.ts';

/**
 * `Idempotency-Key` on the tenant POSTs (API.md §1), keyed by tenant + environment + credential + key;
 * see runIdempotently for the rules. `claimWithEffect`: the route claims the key in its effect's statement.
 */
export function idempotency(deps: AppDeps, options: { claimWithEffect?: boolean } = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    checkIdempotencyKey(key, tenantReplayFailure);
    const principal = c.get('principal');
    const replayed = await runIdempotently(
      c,
      deps,
      {
        scope: {
          tenantId: principal.tenantId,
          environment: principal.environment,
          credentialId: principal.credentialId,
          key,
        },
        request: `${c.req.method} ${c.req.path}\n${JSON.stringify(c.get('jsonBody') ?? null)}`,
        fail: tenantReplayFailure,
        ...(options.claimWithEffect ? { claimWithEffect: true } : {}),
      },
      next,
    );
    if (replayed) return replayed;
  });
}
