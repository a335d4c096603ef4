import type { Context } from 'hono';
import { randomBase62 } from '../crypto/primitives.ts';
import type { AppEnv } from './app-env.ts';

/** A client-sent id is echoed only if it is short and plain, so it is safe to log and to put in headers. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function newRequestId(): string {
  return `req_${randomBase62(96)}`;
}

/**
 * The id of this request (API.md §1): the client's `x-request-id` when it is short and plain, else a new
 * one. Every response carries it back in `x-request-id`, errors included (see request-envelope.ts).
 */
export function requestIdOf(c: Context<AppEnv>): string {
  const sent = c.req.header('x-request-id');
  return sent && ACCEPTABLE_REQUEST_ID.test(sent) ? sent : newRequestId();
}
