import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { replaceInvitation } from '../../store/users.ts';
import { INVITATION_TTL_MS, issueInvitationToken } from '../../features/users/invitation-token.ts';
import { InvitedUserSchema, toTenantUserObject, UserIdParam } from './users-schemas.ts';

export const reissueInvitationRoute = createRoute({
  operationId: 'reissueUserInvitation',
  method: 'post',
  path: '/v1/users/{id}/invitation',
  tags: ['Users'],
  summary: 'Issue a fresh invitation token',
  description:
    'For a user still `invited` (e.g. after the 7 days ran out or the link was lost): returns a new `invitation_token` once; the previous one stops working. Any other user is 404: they have no open invitation. Needs `users:write`.',
  security: [{ ConsoleBearer: [] }],
  request: { params: UserIdParam, headers: IdempotencyKeyHeader },
  responses: {
    200: {
      description: 'The user, with the new invitation token',
      content: { 'application/json': { schema: InvitedUserSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'resource_missing',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
    ),
  },
});

export function registerReissueInvitation(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...reissueInvitationRoute, middleware: kit.tenant({ capability: 'users:write', body: 'optional' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const principal = c.get('principal');
      const { token, tokenHash } = await issueInvitationToken();
      const now = deps.clock.now();
      // The new token commits with its answer (sealed when an Idempotency-Key runs): a retry after a crash
      // gets the token that works replayed, not a third one that silently replaces it.
      const answer = await deps.db.transaction(async (tx) => {
        const updated = await replaceInvitation(tx, principal.tenantId, id, {
          tokenHash,
          expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
          now,
        });
        if (!updated) {
          throw new ApiError('resource_missing', `No open invitation for user \`${id}\` in this tenant.`, {
            param: 'id',
          });
        }
        await recordAuditEvent(tx, deps, auditOriginOf(c, deps), {
          action: 'user.invitation_reissued',
          tenantId: principal.tenantId,
          actor: actorOf(principal),
          target: { type: 'user', id },
        });
        const body = { ...toTenantUserObject(updated), invitation_token: token };
        await answerInTransaction(c, tx, 200, body);
        return body;
      });
      return c.json(answer, 200);
    },
  );
}
