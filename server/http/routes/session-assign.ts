import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { capabilitiesOfRole } from '../../domain/capabilities.ts';
import { ApiError } from '../../errors/api-error.ts';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { assignSession, toReviewClaimObject } from '../../features/review-queue/review-claims.ts';
import { findTenantUser } from '../../store/users.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { ReviewClaimSchema } from './review-claim-schemas.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';
import { findSession } from '../../store/sessions.ts';

const AssignSessionBody = z
  .strictObject({
    user_id: z.string().min(1).max(64).openapi({
      description: 'An active member of the tenant whose role can review (`reviewer` or `tenant_admin`).',
      example: 'usr_2bX9kQ7mV1cN4pR8tY0wZs',
    }),
  })
  .openapi('AssignSessionRequest');

export const assignSessionRoute = createRoute({
  operationId: 'assignSession',
  method: 'put',
  path: '/v1/sessions/{id}/assignment',
  tags: ['Review queue'],
  summary: 'Assign a session in review to a reviewer',
  description:
    'Gives the session to the reviewer with no expiry, replacing any claim; another person’s decision is then 409 `review_claimed` until it is released, decided, reassigned or taken over. Audited as `session.assigned`. Needs `sessions:assign` (tenant admins).',
  security: TENANT_SECURITY,
  request: {
    params: SessionIdParam,
    body: { required: true, content: { 'application/json': { schema: AssignSessionBody } } },
  },
  responses: {
    200: { description: 'The assignment', content: { 'application/json': { schema: ReviewClaimSchema } } },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'resource_missing',
      'invalid_state_transition',
    ),
  },
});

export function registerAssignSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...assignSessionRoute, middleware: kit.tenant({ capability: 'sessions:assign', body: 'json' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const { user_id: userId } = c.req.valid('json');
      const principal = c.get('principal');
      // The session first: another tenant's or environment's id answers 404 whoever the assignee, as an id
      // that never existed does, before anything is said about the user named.
      if ((await findSession(deps.db, principal, id)) === null) {
        throw new ApiError('resource_missing', `No session \`${id}\` exists in this environment.`);
      }
      const reviewer = await findTenantUser(deps.db, principal.tenantId, userId);
      if (reviewer?.status !== 'active' || !capabilitiesOfRole(reviewer.role).includes('sessions:review')) {
        throw new ApiError('invalid_parameter', `\`${userId}\` is not an active member who can review.`, {
          param: 'user_id',
        });
      }
      const origin = auditOriginOf(c, deps);
      const { claim } = await assignSession(
        deps,
        principal,
        id,
        reviewer.id,
        principal.user?.id ?? null,
        async (tx, change) => {
          await recordAuditEvent(tx, deps, origin, {
            action: 'session.assigned',
            tenantId: principal.tenantId,
            environment: principal.environment,
            actor: actorOf(principal),
            target: { type: 'session', id },
            details: { reviewer_id: reviewer.id, previous_reviewer_id: change.previousReviewerId },
          });
        },
      );
      return c.json(toReviewClaimObject(claim), 200);
    },
  );
}
