import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { claimSession, reviewerOf, toReviewClaimObject } from '../../features/review-queue/review-claims.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { ReviewClaimSchema } from './review-claim-schemas.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';

export const takeOverReviewClaimRoute = createRoute({
  operationId: 'takeOverReviewClaim',
  method: 'post',
  path: '/v1/sessions/{id}/claim/take-over',
  tags: ['Review queue'],
  summary: 'Take a session in review over from whoever holds it',
  description:
    'The caller’s claim replaces another person’s claim or assignment (or claims a free session). Taking over from someone is audited as `session.claim_taken_over` with `previous_reviewer_id`. Console users only; needs `sessions:review`.',
  security: [{ ConsoleBearer: [] }],
  request: { params: SessionIdParam },
  responses: {
    200: {
      description: 'The caller’s claim',
      content: { 'application/json': { schema: ReviewClaimSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'invalid_state_transition'),
  },
});

export function registerTakeOverReviewClaim(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...takeOverReviewClaimRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const principal = c.get('principal');
      const origin = auditOriginOf(c, deps);
      const { claim } = await claimSession(
        deps,
        principal,
        id,
        reviewerOf(principal),
        { takeOver: true },
        async (tx, change) => {
          if (change.previousReviewerId === null) return;
          await recordAuditEvent(tx, deps, origin, {
            action: 'session.claim_taken_over',
            tenantId: principal.tenantId,
            environment: principal.environment,
            actor: actorOf(principal),
            target: { type: 'session', id },
            details: { previous_reviewer_id: change.previousReviewerId },
          });
        },
      );
      return c.json(toReviewClaimObject(claim), 200);
    },
  );
}
