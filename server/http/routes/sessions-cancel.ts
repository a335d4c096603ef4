import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
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
      // The answer is stored with the cancel, so a retry after a crash replays it word for word.
      const answer = await deps.db.transaction(async (tx) => {
        const locked = await readSession(tx, deps, scope, id, await findSessionForUpdate(tx, scope, id));
        if (locked.status === 'cancelled') return toSessionObject(deps, locked);
        if (locked.status !== 'created' && locked.status !== 'collecting') {
          throw new ApiError(
            'invalid_state_transition',
            `A session in status \`${locked.status}\` can no longer be cancelled.`,
            {
              extensions: { current_status: locked.status },
            },
          );
        }
        const cancelled = await toSessionObject(
          deps,
          await transitionSession(tx, deps, locked, 'cancelled', 'cancelled'),
        );
        await answerInTransaction(c, tx, 200, cancelled);
        return cancelled;
      });
      return c.json(answer, 200);
    },
  );
}
