import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../errors/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import { errorResponses, IdempotencyKeyHeader } from '../http/openapi-common.ts';
import type { RouteKit } from '../http/route-kit.ts';
import { submitSession } from '../sessions/submit-session.ts';
import { findTenant } from '../store/tenants.ts';
import { toPublicSession } from '../verify/public-session.ts';
import { verifyCaller } from '../verify/verify-context.ts';
import { verifyError } from '../verify/verify-errors.ts';
import { VERIFY_IDEMPOTENCY_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify/verify-kit.ts';
import { PublicSessionSchema } from './schemas/verify-schemas.ts';
import { VERIFY_AUTH_ERRORS } from './verify-session-get.ts';

export const verifyCompleteRoute = createRoute({
  operationId: 'completeVerifySession',
  method: 'post',
  path: '/v1/verify/complete',
  tags: ['End-user'],
  summary: 'Finish and submit the session',
  description:
    'Same effect as the tenant’s submit: a `collecting` session whose steps are all completed moves to `processing`. Calling it again while processing answers 200.',
  security: VERIFY_SECURITY,
  request: { headers: IdempotencyKeyHeader },
  responses: {
    200: {
      description: 'The session, now processing',
      content: { 'application/json': { schema: PublicSessionSchema } },
    },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      ...VERIFY_IDEMPOTENCY_ERRORS,
      'steps_incomplete',
      'invalid_state_transition',
    ),
  },
});

export function registerVerifyComplete(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...verifyCompleteRoute, middleware: verifyKit(app, kit).auth }, async (c) => {
    const { session, tenant } = verifyCaller(c);
    const scope = { tenantId: session.tenant_id, environment: session.environment };
    try {
      const submitted = await submitSession(deps.db, deps, scope, session.id);
      return c.json(toPublicSession(submitted, (await findTenant(deps.db, tenant.id)) ?? tenant), 200);
    } catch (error) {
      // The shared submit words its errors for the tenant; the end-user gets the same code in their terms.
      if (error instanceof ApiError && error.code === 'steps_incomplete') {
        throw verifyError('steps_incomplete', 'Some steps are not finished yet.', {
          extensions: error.extensions,
        });
      }
      if (error instanceof ApiError && error.code === 'invalid_state_transition') {
        throw verifyError('invalid_state_transition', 'This verification can no longer be changed.', {
          extensions: error.extensions,
        });
      }
      throw error;
    }
  });
}
