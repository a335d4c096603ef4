import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from './app-env.ts';
import { validationHook } from './validation-hook.ts';

type Openapi = OpenAPIHono<AppEnv>['openapi'];
type RouteConfig = Parameters<Openapi>[0];

/**
 * Validates the request headers a route declares by reading those headers, one lookup each.
 *
 * Why: zod-openapi's own header validator hands zod every header of the request (`c.req.header()`),
 * and listing them all turns the Node adapter's lightweight view of the request headers into a full
 * web `Headers` object on every request that declares one (every POST with `Idempotency-Key`; issue #13
 * profile). The schema, the docs and the errors stay the same: the route is documented as declared,
 * the same zod object validates the same values (a header object schema ignores undeclared headers
 * anyway), and a failure goes to the same hook. The one difference: the headers are checked before the
 * path and query parameters instead of after them.
 */
export function validateDeclaredHeadersOnly(app: OpenAPIHono<AppEnv>): void {
  const register = app.openapi.bind(app) as (...args: unknown[]) => unknown;
  app.openapi = ((config: RouteConfig, handler: unknown, hook?: unknown) => {
    const schema = config.request?.headers;
    if (!(schema instanceof z.ZodObject)) return register(config, handler, hook);
    const { middleware, hide, ...route } = config;
    if (!hide) app.openAPIRegistry.registerPath(route);
    const checkHeaders = declaredHeaders(schema, hook as HeaderHook | undefined);
    const before = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
    return register(
      {
        ...route,
        hide: true,
        request: { ...route.request, headers: undefined },
        middleware: [...before, checkHeaders],
      },
      handler,
      hook,
    );
  }) as Openapi;
}

type HeaderHook = (
  result:
    | { success: true; data: unknown; target: 'header' }
    | { success: false; error: z.ZodError; target: 'header' },
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
) => unknown;

function declaredHeaders(schema: z.ZodObject, hook: HeaderHook | undefined): MiddlewareHandler<AppEnv> {
  const names = Object.keys(schema.shape);
  return async (c, next) => {
    const value: Record<string, string> = {};
    for (const name of names) {
      const sent = c.req.header(name);
      if (sent !== undefined) value[name] = sent;
    }
    const result = await schema.safeParseAsync(value);
    const hooked = await (hook ?? validationHook)(
      result.success
        ? { success: true, data: result.data, target: 'header' }
        : { success: false, error: result.error, target: 'header' },
      c,
    );
    if (hooked instanceof Response) return hooked;
    if (!result.success) return c.json(result, 400); // what zod-openapi does when no hook answers
    c.req.addValidatedData('header', result.data as Record<string, string>);
    await next();
  };
}
