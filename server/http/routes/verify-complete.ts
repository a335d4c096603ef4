import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { submitSession } from '../../features/sessions/submit-session.ts';
import { updateSession } from '../../store/sessions.ts';
import { findTenant } from '../../store/tenants.ts';
import { type PublicSession, toPublicSession } from '../../features/verify/public-session.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import { verifyCaller } from '../verify-context.ts';
import { verifyError } from '../../features/verify/verify-errors.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_IDEMPOTENCY_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { SANDBOX_OUTCOMES } from './schemas/session-schemas.ts';
import { PublicSessionSchema } from './schemas/verify-schemas.ts';

const CompleteBody = z
  .strictObject({
    sandbox: z
      .strictObject({ outcome: z.enum(SANDBOX_OUTCOMES) })
      .optional()
      .openapi({
        description:
          'Sandbox sessions only: the automated outcome to force, chosen by the developer testing the flow (the widget offers it on its review screen). Replaces an outcome set at creation.',
      }),
  })
  .openapi('VerifyCompleteRequest');

export const verifyCompleteRoute = createRoute({
  operationId: 'completeVerifySession',
  method: 'post',
  path: '/v1/verify/complete',
  tags: ['End-user'],
  summary: 'Finish and submit the session',
  description:
    'Same effect as the tenant’s submit: a `collecting` session whose steps are all completed moves to `processing`. Calling it again while processing answers 200. The body is optional; a sandbox session may name the outcome to force.',
  security: VERIFY_SECURITY,
  request: {
    headers: IdempotencyKeyHeader,
    body: { required: false, content: { 'application/json': { schema: CompleteBody } } },
  },
  responses: {
    200: {
      description: 'The session, now processing',
      content: { 'application/json': { schema: PublicSessionSchema } },
    },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      ...VERIFY_IDEMPOTENCY_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'unknown_parameter',
      'sandbox_parameter_in_production',
      'steps_incomplete',
      'invalid_state_transition',
    ),
  },
});

export function registerVerifyComplete(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...verifyCompleteRoute, middleware: verifyKit(app, kit).optionalJson }, async (c) => {
    const { session, tenant } = verifyCaller(c);
    const scope = { tenantId: session.tenant_id, environment: session.environment };
    const { sandbox } = c.req.valid('json');
    if (sandbox && session.environment === 'production') {
      throw verifyError(
        'sandbox_parameter_in_production',
        'A sandbox outcome is accepted in sandbox sessions only.',
        {
          param: 'sandbox',
        },
      );
    }
    if (sandbox && session.status === 'collecting') {
      // Kept with the session like the create-time choice, so the review worker reads it the same way.
      // Compare-and-set on `collecting`: a session that moved on meanwhile is left as it is.
      await updateSession(
        deps.db,
        session.id,
        'collecting',
        { sandbox: { ...(session.sandbox ?? {}), outcome: sandbox.outcome } },
        deps.clock.now(),
      );
    }
    // Read before the transaction: the embedded database has one connection, which the transaction holds.
    const current = (await findTenant(deps.db, tenant.id)) ?? tenant;
    try {
      let answer: PublicSession | undefined;
      await submitSession(deps.db, deps, scope, session.id, async (tx, submitted) => {
        answer = toPublicSession(submitted, current);
        await answerInTransaction(c, tx, 200, answer);
      });
      return c.json(answer as PublicSession, 200);
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
