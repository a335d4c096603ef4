import { requestId } from 'hono/request-id';
import { randomBase62 } from '../crypto/primitives.ts';

/** Longest client-sent id echoed back: enough for a UUID or a trace id, short enough for every log line. */
const REQUEST_ID_MAX_LENGTH = 128;

export function newRequestId(): string {
  return `req_${randomBase62(96)}`;
}

/**
 * The id of each request (docs/API.md §1), by Hono's own request-id middleware: the client's
 * `x-request-id` when it is at most 128 letters, digits, `_`, `-` or `=` (safe to log and to put in a
 * header), else a new `req_…` id. It lands in `c.get('requestId')`; every response carries it back in
 * `x-request-id`, errors included (see request-envelope.ts).
 */
export function assignRequestId() {
  return requestId({ limitLength: REQUEST_ID_MAX_LENGTH, generator: newRequestId });
}
