import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';
import { jsonBody } from './json-body.ts';
import type { RouteKit } from './route-kit.ts';
import { verifyAuth } from './verify-auth.ts';
import { verifyCors } from './verify-cors.ts';
import { formFingerprint, type MultipartLimits, readVerifyForm, verifyForm } from './verify-form.ts';
import { verifyIdempotency } from './verify-idempotency.ts';

/**
 * The middleware chains of the end-user endpoints, built once per app so rate-limit state is shared.
 * Every chain honours `Idempotency-Key` on POST, keyed by session (see verify-idempotency.ts).
 */
export interface VerifyKit {
  /** Token authentication and per-session rate limit; for operations without a body. */
  auth: MiddlewareHandler<AppEnv>[];
  /** The same plus a JSON body (64 KB, content type checked) for zod validation. */
  json: MiddlewareHandler<AppEnv>[];
  /** As `json`, for an operation whose body may be left out (read as `{}`). */
  optionalJson: MiddlewareHandler<AppEnv>[];
  /**
   * For multipart uploads: token authentication, then `Idempotency-Key` (a retry is recognised by its
   * fields and file contents before anything is stored), then the form read with `limits` and handed to
   * the route's form validator (`readVerifyForm`).
   */
  multipart(limits: MultipartLimits): MiddlewareHandler<AppEnv>[];
}

/** The problems every end-user endpoint may answer before its own work: the token, the tenant, the origin. */
export const VERIFY_AUTH_ERRORS = [
  'authentication_required',
  'invalid_token',
  'tenant_suspended',
  'origin_not_allowed',
  'session_expired',
  'verify_token_expired',
] as const;

/** The problems `Idempotency-Key` adds to an end-user POST. */
export const VERIFY_IDEMPOTENCY_ERRORS = [
  'idempotency_key_reused',
  'idempotency_request_in_progress',
] as const;

/** OpenAPI security requirement of the end-user endpoints. */
export const VERIFY_SECURITY: Record<string, string[]>[] = [{ VerifyToken: [] }];

const kits = new WeakMap<RouteKit, VerifyKit>();

/**
 * Installs what every `/v1/verify/*` route shares (CORS, the security scheme) and returns the
 * middleware chains; call it before registering those routes. Idempotent per app.
 */
export function verifyKit(app: OpenAPIHono<AppEnv>, kit: RouteKit): VerifyKit {
  const existing = kits.get(kit);
  if (existing) return existing;
  app.use('/v1/verify/*', verifyCors);
  app.openAPIRegistry.registerComponent('securitySchemes', 'VerifyToken', {
    type: 'apiKey',
    in: 'header',
    name: 'x-verify-token',
    description:
      'The token of the `verify_url` (the part after `/verify/`) or of a handoff link. Browser-safe: it reaches one session only.',
  });
  const auth = verifyAuth(kit.deps);
  const withoutBody = verifyIdempotency(kit.deps, () => '');
  const withJson = verifyIdempotency(kit.deps, (c) => JSON.stringify(c.get('jsonBody') ?? null));
  const created: VerifyKit = {
    auth: [auth, withoutBody],
    json: [auth, jsonBody(), withJson],
    optionalJson: [auth, jsonBody({ optional: true }), withJson],
    multipart: (limits) => [
      auth,
      verifyIdempotency(kit.deps, async (c) =>
        formFingerprint((await verifyForm(c, limits, kit.deps.clock)).form),
      ),
      readVerifyForm(limits, kit.deps.clock),
    ],
  };
  kits.set(kit, created);
  return created;
}
