import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { StatusCode } from 'hono/utils/http-status';
import type { AppDeps } from '../app-deps.ts';
import { API_HEADERS, completeApiHeaders } from './api-headers.ts';
import type { AppEnv } from './app-env.ts';
import { routePatternOf } from './request-log.ts';

function isApiPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}

type Json = Context<AppEnv>['json'];

/** Responses `c.json` built with every owed header already in place (see buildJsonWithHeaders). */
const builtWithOwedHeaders = new WeakSet<Response>();

/**
 * The frame of every request, right after Hono's request-id middleware (request-id.ts): the app's
 * dependencies, the headers every response carries and the request log line. One layer where there
 * were three (issue #13).
 *
 * **Headers.** The response headers this request owes (`x-request-id`; on `/v1/…` the API headers of
 * api-headers.ts; the rate limiter adds its two) are gathered in one plain object, `responseHeaders`.
 * A JSON answer (`c.json`, what every API route returns) is built with them in one go as a plain
 * object, which the Node adapter writes straight out: Hono's own `c.json` would first build a web
 * `Headers` object from them and the adapter turn it back into an object, at about 30 µs per response
 * on the bench machine. Any other response (a problem document, an idempotent replay, a page) gets the
 * missing ones afterwards, as before: a route's own `cache-control` or `content-security-policy` wins,
 * the rest are enforced. `c.header` and `c.status` keep working: they feed the same object.
 *
 * **Log.** One structured `request` record once the response is known: the request id the client sees in
 * `x-request-id`, the tenant when a credential named one, the route pattern, the status and the time
 * taken. Nothing else: no query string, no header, no body, no address; those hold tokens and personal
 * data. Without a logger (the mock, most tests) it costs nothing.
 *
 * @example
 * app.use('*', assignRequestId());
 * app.use('*', requestEnvelope(deps));
 * // {"level":"info","message":"request","request_id":"req_…","tenant_id":"ten_…","method":"GET",
 * //  "route":"/v1/sessions/:id","status":200,"duration_ms":3}
 */
export function requestEnvelope(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const logger = deps.logger;
    const started = logger ? performance.now() : 0;
    c.set('deps', deps);
    const id = c.get('requestId');
    const api = isApiPath(c.req.path);
    const headers: Record<string, string> = api
      ? { 'x-request-id': id, ...API_HEADERS }
      : { 'x-request-id': id };
    c.set('responseHeaders', headers);
    buildJsonWithHeaders(c, headers);
    try {
      await next();
    } finally {
      const response = c.res;
      if (!builtWithOwedHeaders.has(response)) completeHeaders(response.headers, headers, api);
      if (logger) {
        logger.info('request', {
          request_id: id,
          tenant_id: c.get('principal')?.tenantId ?? null,
          method: c.req.method,
          route: routePatternOf(c),
          // A throw that escaped every handler ends as Hono's own 500.
          status: response?.status ?? 500,
          duration_ms: Math.round(performance.now() - started),
        });
      }
    }
  });
}

/** The owed headers a response built some other way lacks (see requestEnvelope). */
function completeHeaders(target: Headers, owed: Record<string, string>, api: boolean): void {
  const id = owed['x-request-id'] as string;
  if (target.get('x-request-id') !== id) target.set('x-request-id', id);
  if (api) completeApiHeaders(target);
  const rateLimit = owed['ratelimit'];
  if (rateLimit !== undefined && target.get('ratelimit') !== rateLimit) {
    target.set('ratelimit-policy', owed['ratelimit-policy'] as string);
    target.set('ratelimit', rateLimit);
  }
}

/**
 * Makes this request's `c.json` build its response with `headers` as a plain object, and routes
 * `c.header` / `c.status` into the same place; the responses built that way need no completing. Anything
 * this cannot express as a plain object (a `ResponseInit` argument, an appended or multi-valued header, a
 * call after the response exists) goes to Hono's own methods, whose responses are then completed like
 * any other.
 */
function buildJsonWithHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  const honoJson = c.json;
  const honoHeader = c.header;
  const honoStatus = c.status;
  let status: StatusCode | undefined;
  let plain = true;

  c.status = (code) => {
    status = code;
    honoStatus(code);
  };
  c.header = ((name: string, value: string | undefined, options?: { append?: boolean }) => {
    if (c.finalized || options?.append || name.toLowerCase() === 'set-cookie') plain = false;
    else if (value === undefined) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
    honoHeader(name, value as string, options);
  }) as Context<AppEnv>['header'];
  c.json = ((object: unknown, arg?: unknown, extra?: Record<string, string | string[]>) => {
    if (!plain || c.finalized || (arg !== undefined && typeof arg !== 'number')) {
      return (honoJson as (...args: unknown[]) => Response)(object, arg, extra);
    }
    const all: Record<string, string> = { ...headers, 'content-type': 'application/json' };
    if (extra) {
      for (const name in extra) {
        const value = extra[name];
        if (typeof value !== 'string')
          return (honoJson as (...args: unknown[]) => Response)(object, arg, extra);
        all[name.toLowerCase()] = value;
      }
    }
    const response = new Response(JSON.stringify(object), {
      status: (arg as number | undefined) ?? status ?? 200,
      headers: all,
    });
    builtWithOwedHeaders.add(response);
    return response;
  }) as Json;
}
