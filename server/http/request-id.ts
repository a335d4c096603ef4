import { createMiddleware } from 'hono/factory';
import { randomBase62 } from '../crypto/primitives.ts';
import type { AppEnv } from './app-env.ts';

/** A client-sent id is echoed only if it is short and plain, so it is safe to log and to put in headers. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function newRequestId(): string {
  return `req_${randomBase62(96)}`;
}

/**
 * Every response carries `x-request-id` (API.md §1), errors included. Set before the route runs so the
 * response is built with it (see api-headers.ts for why); a handler-built response gets it afterwards.
 */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const sent = c.req.header('x-request-id');
  const id = sent && ACCEPTABLE_REQUEST_ID.test(sent) ? sent : newRequestId();
  c.set('requestId', id);
  c.header('x-request-id', id);
  await next();
  if (c.res.headers.get('x-request-id') !== id) c.res.headers.set('x-request-id', id);
});
