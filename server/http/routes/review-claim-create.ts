import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { claimSession, reviewerOf, toReviewClaimObject } from '../../features/review-queue/review-claims.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { ReviewClaimSchema } from './review-claim-schemas.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';

export const claimSessionRoute = createRoute({
  operationId: 'claimSession',
  method: 'post',
  path: '/v1/sessions/{id}/claim',
  tags: ['Review queue'],
  summary: 'Claim a session in review, or renew your claim',
  description:
    'The caller works on the session for the next 30 minutes; claiming again renews it (an assignment stays one). While it holds, another person’s decision is 409 `review_claimed`. Someone else’s active claim is 409 `review_claimed` too: take it over explicitly. Console users only; needs `sessions:review`.',
  security: [{ ConsoleBearer: [] }],
  request: { params: SessionIdParam },
  responses: {
    200: {
      description: 'The caller’s claim',
      content: { 'application/json': { schema: ReviewClaimSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'invalid_state_transition', 'review_claimed'),
  },
});

export function registerClaimSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...claimSessionRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const principal = c.get('principal');
      const { claim } = await claimSession(deps, principal, id, reviewerOf(principal), { takeOver: false });
      return c.json(toReviewClaimObject(claim), 200);
    },
  );
}
