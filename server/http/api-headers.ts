import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';

const NEVER_FRAMED = "default-src 'none'; frame-ancestors 'none'";

/**
 * Headers for every JSON API response: never cached (responses may hold personal data), never sniffed,
 * never framed or rendered as a page.
 *
 * Set before the route runs, so the response is built with them in one go (Hono merges headers set on the
 * context into the response it creates); touching a finished response's headers instead makes the Node
 * adapter build a second headers object (issue #13 profile). A response a handler built itself (a problem
 * document, a replay) does not carry them yet: it gets them afterwards. A route's own `cache-control` or
 * `content-security-policy` wins either way.
 */
export const apiHeaders = createMiddleware<AppEnv>(async (c, next) => {
  c.header('cache-control', 'no-store');
  c.header('x-content-type-options', 'nosniff');
  c.header('content-security-policy', NEVER_FRAMED);
  c.header('referrer-policy', 'no-referrer');
  await next();
  // Reads only, for a response built with the headers above; a handler-built one gets them here.
  const headers = c.res.headers;
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  if (headers.get('x-content-type-options') !== 'nosniff') headers.set('x-content-type-options', 'nosniff');
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', NEVER_FRAMED);
  if (headers.get('referrer-policy') !== 'no-referrer') headers.set('referrer-policy', 'no-referrer');
});
