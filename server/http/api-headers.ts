import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';

/**
 * Headers for every JSON API response: never cached (responses may hold personal data), never sniffed,
 * never framed or rendered as a page.
 */
export const apiHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const headers = c.res.headers;
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  if (!headers.has('content-security-policy')) {
    headers.set('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  }
  headers.set('referrer-policy', 'no-referrer');
});
