import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { REASON_CODES } from '../../domain/review/index.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { reviewByPerson } from '../../features/review/review-by-person.ts';
import { type SessionObject, toSessionObject } from '../../features/sessions/session-object.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import { SessionIdParam, SessionSchema } from './schemas/session-schemas.ts';

export const ReviewSessionBody = z
  .strictObject({
    decision: z.enum(['approve', 'reject']),
    reason_codes: z
      .array(z.enum(REASON_CODES))
      .max(13)
      .optional()
      .openapi({ description: 'With `reject` only; `manual_rejection` is always added.' }),
    note: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .openapi({ description: 'Kept encrypted for the audit trail; never sent in events or results.' }),
  })
  .openapi('ReviewSessionRequest');

export const reviewSessionRoute = createRoute({
  operationId: 'reviewSession',
  method: 'post',
  path: '/v1/sessions/{id}/review',
  tags: ['Sessions'],
  summary: 'Decide a session that needs manual review',
  description:
    'Approves or rejects a `review_required` session; the result then says `decided_by: reviewer`. While another person holds a claim or an assignment on the session, 409 `review_claimed`: take it over first (`POST /v1/sessions/{id}/claim/take-over`). The decision ends the claim. Needs `sessions:review`.',
  security: TENANT_SECURITY,
  request: {
    params: SessionIdParam,
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: ReviewSessionBody } } },
  },
  responses: {
    200: {
      description: 'The decided session',
      content: { 'application/json': { schema: SessionSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'resource_missing',
      'invalid_state_transition',
      'review_claimed',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
    ),
  },
});

export function registerReviewSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...reviewSessionRoute, middleware: kit.tenant({ capability: 'sessions:review', body: 'json' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const principal = c.get('principal');
      if (body.decision === 'approve' && body.reason_codes?.length) {
        throw new ApiError('invalid_parameter', '`reason_codes` explain a rejection; omit them to approve.', {
          param: 'reason_codes',
        });
      }
      let answer: SessionObject | undefined;
      const review = {
        decision: body.decision,
        reasonCodes: body.reason_codes,
        note: body.note,
        reviewerId: principal.user?.id ?? principal.credentialId,
      };
      await reviewByPerson(deps, principal, id, review, async (tx, decided) => {
        answer = await toSessionObject(deps, decided);
        await answerInTransaction(c, tx, 200, answer);
      });
      return c.json(answer as SessionObject, 200);
    },
  );
}
