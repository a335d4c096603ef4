import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';
import { isOriginRefused } from './verify-context.ts';

const ALLOWED_METHODS = 'GET, POST, PUT';
const ALLOWED_HEADERS = 'content-type, x-verify-token, idempotency-key';
const EXPOSED_HEADERS = 'x-request-id, retry-after';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for `/v1/verify/*` (API.md §9). A preflight carries no `x-verify-token`, so it cannot know the
 * session, its tenant's `allowed_origins`, or whether it is a sandbox session (where any origin is
 * allowed): it is answered for any origin. The real request then enforces the session's rule before
 * anything happens (403 `origin_not_allowed`, see verify-auth.ts) and its answer carries no CORS header,
 * so a page on a disallowed origin can neither act nor read. Answers to requests the origin may make,
 * errors included, name the origin so the page can show them.
 */
export const verifyCors = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header('origin');
  if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined) {
    const headers = new Headers({
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      'cache-control': 'no-store',
    });
    if (origin !== undefined) headers.set('access-control-allow-origin', origin);
    return new Response(null, { status: 204, headers });
  }
  await next();
  c.res.headers.append('vary', 'Origin');
  if (origin === undefined || isOriginRefused(c)) return;
  c.res.headers.set('access-control-allow-origin', origin);
  c.res.headers.set('access-control-expose-headers', EXPOSED_HEADERS);
});
