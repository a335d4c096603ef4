import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { releaseClaim } from '../../features/review-queue/review-claims.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';

const ReleasedClaimSchema = z
  .object({
    object: z.literal('review_claim_release'),
    session_id: z.string(),
    released: z.boolean().openapi({ description: 'False when nobody held an active claim.' }),
    previous_reviewer_id: z.string().nullable(),
  })
  .openapi('ReviewClaimRelease');

export const releaseReviewClaimRoute = createRoute({
  operationId: 'releaseReviewClaim',
  method: 'delete',
  path: '/v1/sessions/{id}/claim',
  tags: ['Review queue'],
  summary: 'Release a claim on a session in review',
  description:
    'Ends the caller’s own claim or assignment. Someone else’s needs `sessions:assign` (tenant admins) and is audited as `session.claim_released`; without it, 409 `review_claimed`. Releasing when nobody holds a claim answers `released: false`. Needs `sessions:review`.',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam },
  responses: {
    200: {
      description: 'What was released',
      content: { 'application/json': { schema: ReleasedClaimSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'review_claimed'),
  },
});

export function registerReleaseReviewClaim(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...releaseReviewClaimRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const principal = c.get('principal');
      const personId = principal.user?.id ?? null;
      const origin = auditOriginOf(c, deps);
      const released = await releaseClaim(
        deps,
        principal,
        id,
        personId,
        principal.capabilities.has('sessions:assign'),
        async (tx, claim) => {
          if (claim.reviewer_id === personId) return;
          await recordAuditEvent(tx, deps, origin, {
            action: 'session.claim_released',
            tenantId: principal.tenantId,
            environment: principal.environment,
            actor: actorOf(principal),
            target: { type: 'session', id },
            details: { previous_reviewer_id: claim.reviewer_id },
          });
        },
      );
      return c.json(
        {
          object: 'review_claim_release' as const,
          session_id: id,
          released: released !== null,
          previous_reviewer_id: released?.reviewer_id ?? null,
        },
        200,
      );
    },
  );
}
