import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './app-env.ts';
import type { AuthenticateOptions, Authenticator } from './authenticate.ts';
import { idempotency } from './idempotency.ts';
import { jsonBody } from './json-body.ts';

export interface TenantOperationOptions extends AuthenticateOptions {
  /** `json`: a JSON object is required; `optional`: an empty body is `{}`; `none`: no body is read. */
  body?: 'json' | 'optional' | 'none';
}

/** What every route file gets: the app's dependencies and the standard middleware chain. */
export interface RouteKit {
  deps: AppDeps;
  auth: Authenticator;
  /**
   * The middleware of a tenant operation, in the order that makes errors come out right: credentials
   * first (401/403 before anything about the body), then rate limit, then body, then idempotency
   * (which needs both the credential and the body), then zod validation (run by the route itself).
   */
  tenant(options?: TenantOperationOptions): MiddlewareHandler<AppEnv>[];
}

export function createRouteKit(
  deps: AppDeps,
  auth: Authenticator,
  rateLimit: MiddlewareHandler<AppEnv>,
): RouteKit {
  const idempotent = idempotency(deps);
  return {
    deps,
    auth,
    tenant(options = {}) {
      const chain: MiddlewareHandler<AppEnv>[] = [auth.middleware(options), rateLimit];
      const body = options.body ?? 'none';
      if (body !== 'none') chain.push(jsonBody({ optional: body === 'optional' }));
      chain.push(idempotent);
      return chain;
    },
  };
}
