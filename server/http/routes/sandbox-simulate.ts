import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { REASON_CODES } from '../../domain/review/index.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { SIMULATE_ACTIONS, simulateSession } from '../../features/review/simulate-session.ts';
import { toSessionObject } from '../../features/sessions/session-object.ts';
import { SessionIdParam, SessionSchema } from './schemas/session-schemas.ts';

export const SimulateSessionBody = z
  .strictObject({
    action: z.enum(SIMULATE_ACTIONS).openapi({
      description:
        '`start`, `complete_steps` and `submit` act as the end-user; `approve`, `reject` and `review` as the engine (walking through the earlier steps first), or as a reviewer on a `review_required` session; `expire` as the clock.',
    }),
    reason_codes: z
      .array(z.enum(REASON_CODES))
      .max(13)
      .optional()
      .openapi({ description: 'With `reject` or `review`: the reasons the forced decision carries.' }),
  })
  .openapi('SimulateSessionRequest');

export const simulateSessionRoute = createRoute({
  operationId: 'simulateSession',
  method: 'post',
  path: '/v1/sandbox/sessions/{id}/simulate',
  tags: ['Sandbox'],
  summary: 'Drive a sandbox session to any state',
  description:
    'Sandbox credentials only (403 `sandbox_only` otherwise). Goes through the real transitions, so the real events fire.',
  security: TENANT_SECURITY,
  request: {
    params: SessionIdParam,
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: SimulateSessionBody } } },
  },
  responses: {
    200: {
      description: 'The session after the action',
      content: { 'application/json': { schema: SessionSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'sandbox_only',
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'resource_missing',
      'invalid_state_transition',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
    ),
  },
});

export function registerSimulateSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  const middleware = kit.tenant({
    capability: 'sandbox:simulate',
    body: 'json',
    // Refused before the body is even read: a production credential learns nothing else here.
    admit: (c) => {
      if (c.get('principal').environment !== 'sandbox') {
        throw new ApiError('sandbox_only', 'Simulation is available with sandbox credentials only.');
      }
    },
  });
  app.openapi(
    {
      ...simulateSessionRoute,
      middleware,
    },
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const principal = c.get('principal');
      if (body.reason_codes?.length && body.action !== 'reject' && body.action !== 'review') {
        throw new ApiError('invalid_parameter', '`reason_codes` go with `reject` or `review` only.', {
          param: 'reason_codes',
        });
      }
      const row = await simulateSession(deps, principal, id, body.action, body.reason_codes);
      return c.json(await toSessionObject(deps, row), 200);
    },
  );
}
