import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppDeps } from './app-deps.ts';
import { auditTrail } from './http/audit-trail.ts';
import { registerDocs } from './http/pages/docs/register-docs.ts';
import { registerHostedPage } from './http/pages/hosted/register-hosted-page.ts';
import { registerConsole } from './http/pages/console/register-console.ts';
import { registerDemo } from './http/pages/demo/register-demo.ts';
import { ApiError } from './errors/api-error.ts';
import { problemResponse } from './errors/problem.ts';
import type { AppEnv } from './http/app-env.ts';
import { createAuthenticator } from './http/authenticate.ts';
import { rejectControlCharacters } from './http/control-characters.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { validateDeclaredHeadersOnly } from './http/declared-headers.ts';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestEnvelope } from './http/request-envelope.ts';
import { assignRequestId, newRequestId } from './http/request-id.ts';
import { createRouteKit } from './http/route-kit.ts';
import { validationHook } from './http/validation-hook.ts';
import { registerV1Routes } from './http/routes/index.ts';

export const API_VERSION = '1.0.0';

/**
 * The project's licence as OpenAPI 3.1 names it (an SPDX `identifier`). A variable, not a literal: the
 * generator's type predates 3.1 and lacks `identifier`, but writes the object as given.
 */
const LICENSE = { name: 'Apache-2.0', identifier: 'Apache-2.0' };

function toApiError(error: unknown, contentType: string | undefined): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new ApiError('payload_too_large', 'The request body is too large.');
    if (error.status === 400)
      return new ApiError('invalid_json', error.message || 'The request is malformed.');
    // zod-openapi's media-type check: an upload whose multipart type carries more than its boundary
    // (RFC 7578 defines no other parameter) is told so, not to send JSON.
    if (error.status === 415 && contentType?.toLowerCase().startsWith('multipart/form-data'))
      return new ApiError(
        'unsupported_media_type',
        'Send the upload as `multipart/form-data; boundary=…` with no other parameter.',
      );
    if (error.status === 415)
      return new ApiError(
        'unsupported_media_type',
        'Send the body as JSON with `Content-Type: application/json`.',
      );
  }
  return null;
}

/**
 * Builds the whole API as a web-standard Hono app. Every host (the Node server, the MSW mock, tests)
 * passes its own dependencies, so they all run exactly the same code.
 *
 * @example
 * const app = createApp(deps);
 * const response = await app.request('/v1/sessions', { headers: { 'x-api-key': key } });
 */
export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  validateDeclaredHeadersOnly(app);
  const auth = createAuthenticator(deps);
  const kit = createRouteKit(deps, auth, createRateLimiter(deps));

  const problem = (c: Context<AppEnv>, error: ApiError) =>
    problemResponse(error, {
      baseUrl: deps.config.baseUrl,
      instance: c.req.path,
      requestId: c.get('requestId') ?? newRequestId(),
    });

  // The request id (Hono's middleware), then the dependencies, the headers every response owes and the
  // request log (request-envelope.ts).
  app.use('*', assignRequestId());
  app.use('*', requestEnvelope(deps));
  // A known path with another method answers 405 with `allow` instead of a misleading 404 (Hono's middleware).
  app.use(
    '*',
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        problem(
          c,
          new ApiError(
            'method_not_allowed',
            `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(', ')}.`,
            {
              headers: { allow: methods.join(', ') },
            },
          ),
        ),
    }),
  );
  app.use('*', rejectControlCharacters);
  // Records the audit log's events for the routes that do not record their own (see audit-trail.ts).
  app.use('/v1/*', auditTrail(deps, app));

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: '`sk_sandbox_…` or `sk_live_…`; the key decides the environment. Server-side only.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'ConsoleBearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Console access token from `POST /v1/console/login`; pick the environment with `x-environment`.',
  });

  registerV1Routes(app, kit);
  app.doc31('/v1/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'id-verify API',
      version: API_VERSION,
      license: LICENSE,
      description:
        'Identity verification sessions, identities, re-verification and webhooks. Errors are RFC 9457 problem details; branch on `code`.',
    },
    servers: [{ url: deps.config.baseUrl }],
  });
  registerDocs(app, deps);
  registerHostedPage(app, deps);
  registerConsole(app, deps);
  registerDemo(app, deps);
  registerHealthRoutes(app, deps);

  app.notFound((c) =>
    problem(c, new ApiError('route_not_found', `No route ${c.req.method} ${c.req.path}. See /docs.`)),
  );

  app.onError((error, c) => {
    const known = toApiError(error, c.req.header('content-type'));
    if (known) return problem(c, known);
    // Log the class and message only: an error message from a driver may quote a statement, never a secret,
    // and request bodies (personal data) are never logged.
    deps.logger?.error('unhandled error', {
      request_id: c.get('requestId'),
      route: c.req.routePath,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return problem(
      c,
      new ApiError('internal_error', 'Something went wrong on our side. Quote the request_id to support.'),
    );
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
