import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import { toReviewClaimObject } from '../../features/review-queue/review-claims.ts';
import { findActiveClaim } from '../../store/review-claims.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { ReviewClaimSchema } from './review-claim-schemas.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';

export const getReviewClaimRoute = createRoute({
  operationId: 'getReviewClaim',
  method: 'get',
  path: '/v1/sessions/{id}/claim',
  tags: ['Review queue'],
  summary: 'Who is working on a session in review',
  description:
    'The session’s active claim or assignment; 404 when nobody holds one. Needs `sessions:review`.',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam },
  responses: {
    200: { description: 'The active claim', content: { 'application/json': { schema: ReviewClaimSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetReviewClaim(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getReviewClaimRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const claim = await findActiveClaim(deps.db, c.get('principal'), id, deps.clock.now());
      if (!claim) throw new ApiError('resource_missing', `Nobody holds a claim on session \`${id}\`.`);
      return c.json(toReviewClaimObject(claim), 200);
    },
  );
}
