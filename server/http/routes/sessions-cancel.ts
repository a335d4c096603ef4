import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { toSessionObject } from '../../features/sessions/session-object.ts';
import { readSession, transitionSession } from '../../features/sessions/transition-session.ts';
import { findSessionForUpdate } from '../../store/sessions.ts';
import { SessionIdParam, SessionSchema } from './schemas/session-schemas.ts';

export const cancelSessionRoute = createRoute({
  operationId: 'cancelSession',
  method: 'delete',
  path: '/v1/sessions/{id}',
  tags: ['Sessions'],
  summary: 'Cancel a session',
  description: 'Idempotent: cancelling a cancelled session answers 200 with the same body.',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam },
  responses: {
    200: { description: 'The cancelled session', content: { 'application/json': { schema: SessionSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'invalid_state_transition'),
  },
});

export function registerCancelSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...cancelSessionRoute, middleware: kit.tenant({ capability: 'sessions:cancel' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const scope = c.get('principal');
      const row = await deps.db.transaction(async (tx) => {
        const locked = await readSession(tx, deps, scope, id, await findSessionForUpdate(tx, scope, id));
        if (locked.status === 'cancelled') return locked;
        if (locked.status !== 'created' && locked.status !== 'collecting') {
          throw new ApiError(
            'invalid_state_transition',
            `A session in status \`${locked.status}\` can no longer be cancelled.`,
            {
              extensions: { current_status: locked.status },
            },
          );
        }
        return transitionSession(tx, deps, locked, 'cancelled', 'cancelled');
      });
      return c.json(await toSessionObject(deps, row), 200);
    },
  );
}
