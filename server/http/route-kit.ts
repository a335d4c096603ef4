import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './app-env.ts';
import type { AuthenticateOptions, Authenticator } from './authenticate.ts';
import { idempotency } from './idempotency.ts';
import { readJsonBody } from './json-body.ts';
import type { CountRequest } from './rate-limit.ts';

export interface TenantOperationOptions extends AuthenticateOptions {
  /** `json`: a JSON object is required; `optional`: an empty body is `{}`; `none`: no body is read. */
  body?: 'json' | 'optional' | 'none';
  /**
   * Runs right after the credential is known, before the rate limit and the body: a refusal that depends
   * only on who is asking (the sandbox-only operations) tells such a caller nothing else.
   */
  admit?: (c: Context<AppEnv>) => void;
  /**
   * The route claims its Idempotency-Key in the statement of its effect (IdempotentAnswer's `keyTaken`):
   * no statement of its own for the key (session create, the busiest idempotent operation).
   */
  claimIdempotencyKeyWithEffect?: boolean;
}

/** What every route file gets: the app's dependencies and the standard middleware chain. */
export interface RouteKit {
  deps: AppDeps;
  auth: Authenticator;
  /**
   * The middleware of a tenant operation, in the order that makes errors come out right: credentials
   * first (401/403 before anything about the body), then rate limit, then body, then idempotency
   * (which needs both the credential and the body), then zod validation (run by the route itself).
   * One layer that runs the steps in turn, not one per step: every layer of Hono's chain costs a
   * dispatch and a promise on every request (issue #13).
   */
  tenant(options?: TenantOperationOptions): MiddlewareHandler<AppEnv>[];
}

export function createRouteKit(deps: AppDeps, auth: Authenticator, countRequest: CountRequest): RouteKit {
  const idempotent = idempotency(deps);
  const idempotentWithEffect = idempotency(deps, { claimWithEffect: true });
  return {
    deps,
    auth,
    tenant(options = {}) {
      const body = options.body ?? 'none';
      const bodyOptions = { optional: body === 'optional' };
      const tenantOperation: MiddlewareHandler<AppEnv> = async (c, next) => {
        c.set('principal', await auth.authenticate(c, options));
        options.admit?.(c);
        await countRequest(c);
        if (body !== 'none') await readJsonBody(c, bodyOptions);
        return (options.claimIdempotencyKeyWithEffect ? idempotentWithEffect : idempotent)(c, next);
      };
      return [tenantOperation];
    },
  };
}
