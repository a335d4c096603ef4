import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './app-env.ts';

/**
 * The route pattern that answered (`/v1/sessions/:id`), never the raw path: paths carry verify tokens and
 * ids a log has no business keeping. Null when no route matched (only catch-all middleware did).
 *
 * @example
 * routePatternOf(c) // '/verify/:token' for GET /verify/BhCeJvm5…
 */
export function routePatternOf(c: Context<AppEnv>): string | null {
  const last = matchedRoutes(c).at(-1);
  if (!last || (last.method === 'ALL' && last.path.endsWith('*'))) return null;
  return last.path;
}

/**
 * One structured `request` record per request, written after the response is known: the request id the
 * client sees in `x-request-id`, the tenant when a credential named one, the route pattern, the status and
 * the time taken. Nothing else: no query string, no header, no body, no address; those hold tokens and
 * personal data. Without a logger (the mock, most tests) it costs one clock read.
 *
 * @example
 * app.use('*', requestLog(deps));
 * // {"level":"info","message":"request","request_id":"req_…","tenant_id":"ten_…","method":"GET",
 * //  "route":"/v1/sessions/:id","status":200,"duration_ms":3}
 */
export function requestLog(deps: Pick<AppDeps, 'logger'>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const logger = deps.logger;
      if (logger) {
        logger.info('request', {
          request_id: c.get('requestId') ?? null,
          tenant_id: c.get('principal')?.tenantId ?? null,
          method: c.req.method,
          route: routePatternOf(c),
          // A throw that escaped every handler ends as Hono's own 500.
          status: c.res?.status ?? 500,
          duration_ms: Math.round(performance.now() - started),
        });
      }
    }
  });
}
