import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import type { RouteKit } from '../route-kit.ts';
import { toSessionObject } from '../../features/sessions/session-object.ts';
import { readSession } from '../../features/sessions/transition-session.ts';
import { issueVerifyToken } from '../../features/sessions/verify-token.ts';
import { findSessionForUpdate, updateSession } from '../../store/sessions.ts';
import { SessionIdParam, SessionSchema } from './schemas/session-schemas.ts';

export const refreshVerifyUrlRoute = createRoute({
  operationId: 'refreshVerifyUrl',
  method: 'post',
  path: '/v1/sessions/{id}/verify-url',
  tags: ['Sessions'],
  summary: 'Issue a fresh verify_url',
  description: 'Issues a new verify token for an open session and invalidates the previous link at once.',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam, headers: IdempotencyKeyHeader },
  responses: {
    200: {
      description: 'The session with its new verify_url',
      content: { 'application/json': { schema: SessionSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'invalid_state_transition'),
  },
});

export function registerRefreshVerifyUrl(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...refreshVerifyUrlRoute, middleware: kit.tenant({ capability: 'sessions:create', body: 'optional' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const scope = c.get('principal');
      // The new link is stored with its answer: a retry after a crash replays it rather than issuing a
      // third link (and revoking the one the first attempt issued).
      const answer = await deps.db.transaction(async (tx) => {
        const locked = await readSession(tx, deps, scope, id, await findSessionForUpdate(tx, scope, id));
        if (locked.status !== 'created' && locked.status !== 'collecting') {
          throw new ApiError(
            'invalid_state_transition',
            `A session in status \`${locked.status}\` has no verify link.`,
            {
              extensions: { current_status: locked.status },
            },
          );
        }
        const token = await issueVerifyToken(deps.cipher, locked.id);
        const updated = await updateSession(
          tx,
          locked.id,
          locked.status,
          { verify_token_hash: token.hash, verify_token_nonce: token.nonce },
          deps.clock.now(),
        );
        const refreshed = await toSessionObject(deps, updated ?? locked);
        await answerInTransaction(c, tx, 200, refreshed);
        return refreshed;
      });
      return c.json(answer, 200);
    },
  );
}
