import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from './app-env.ts';

/**
 * The route pattern that answered (`/v1/sessions/:id`), never the raw path: paths carry verify tokens and
 * ids a log has no business keeping. Null when no route matched (only catch-all middleware did). The
 * request log line itself is written by request-envelope.ts.
 *
 * @example
 * routePatternOf(c) // '/verify/:token' for GET /verify/BhCeJvm5…
 */
export function routePatternOf(c: Context<AppEnv>): string | null {
  const last = matchedRoutes(c).at(-1);
  if (!last || (last.method === 'ALL' && last.path.endsWith('*'))) return null;
  return last.path;
}
