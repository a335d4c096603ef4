import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { type SessionObject, toSessionObject } from '../../features/sessions/session-object.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import { submitSession } from '../../features/sessions/submit-session.ts';
import { SessionIdParam, SessionSchema } from './schemas/session-schemas.ts';

export const submitSessionRoute = createRoute({
  operationId: 'submitSession',
  method: 'post',
  path: '/v1/sessions/{id}/submit',
  tags: ['Sessions'],
  summary: 'Submit a session for automated review',
  description:
    'Moves a `collecting` session whose required steps are all complete to `processing`. Submitting a session that is already processing answers 200.',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam, headers: IdempotencyKeyHeader },
  responses: {
    200: {
      description: 'The session, now processing',
      content: { 'application/json': { schema: SessionSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'steps_incomplete', 'invalid_state_transition'),
  },
});

export function registerSubmitSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...submitSessionRoute, middleware: kit.tenant({ capability: 'sessions:create', body: 'optional' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const scope = c.get('principal');
      let answer: SessionObject | undefined;
      await submitSession(deps.db, deps, scope, id, async (tx, submitted) => {
        answer = await toSessionObject(deps, submitted);
        await answerInTransaction(c, tx, 200, answer);
      });
      return c.json(answer as SessionObject, 200);
    },
  );
}
