import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { REASON_CODES } from '../../domain/review/index.ts';
import { toReviewClaimObject } from '../../features/review-queue/review-claims.ts';
import { sessionSearchOf } from '../../features/review-queue/session-search.ts';
import { sessionCipherContext } from '../../features/sessions/session-object.ts';
import { tenantMissing } from '../../features/tenants/tenant-object.ts';
import { listReviewQueue, type ReviewQueueRow } from '../../store/review-queue.ts';
import { findSession } from '../../store/sessions.ts';
import { findTenant } from '../../store/tenants.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { ReviewClaimSchema } from './review-claim-schemas.ts';
import { PaginationQuery, repeatable } from './schemas/list-query.ts';

const ReviewQueueItemSchema = z
  .object({
    object: z.literal('review_queue_item'),
    session_id: z.string(),
    country: z.string(),
    flow: z.string(),
    tier: z.string(),
    external_user_reference: z.string().nullable(),
    created_at: z.string(),
    submitted_at: z.string().nullable(),
    waiting_since: z
      .string()
      .openapi({ description: 'When the automated review sent the session to a person.' }),
    waiting_minutes: z.number().int(),
    target_minutes: z.number().int().openapi({ description: 'The tenant’s `review_target_minutes`.' }),
    over_target: z.boolean(),
    reason_codes: z.array(z.string()).openapi({ description: 'Why the session waits for a person.' }),
    // Null when nobody holds it. A union, not `.nullable()`: that would make the shared `ReviewClaim`
    // component itself nullable for every operation that answers one.
    claim: z.union([ReviewClaimSchema, z.null()]),
  })
  .openapi('ReviewQueueItem');

const ListReviewQueueQuery = PaginationQuery.extend({
  q: z.string().trim().min(1).max(200).optional().openapi({
    description:
      'A session id, an external user reference (exact), or a name: every word must be a word of a first or last name the review read (case and accents ignored). Names are compared by keyed digests, never decrypted.',
  }),
  reason_code: repeatable(z.enum(REASON_CODES))
    .optional()
    .openapi({ description: 'Repeatable: sessions in review for any of these reasons.' }),
  claim: z.enum(['mine', 'unclaimed', 'others']).optional().openapi({
    description: 'Only sessions the caller holds, nobody holds, or someone else holds.',
  }),
}).strict();

export const listReviewQueueRoute = createRoute({
  operationId: 'listReviewQueue',
  method: 'get',
  path: '/v1/review-queue',
  tags: ['Review queue'],
  summary: 'The sessions waiting for a person, oldest first',
  description:
    'Sessions in `review_required` with why they wait, how long against the tenant’s target, and who works on them. Needs `sessions:review`.',
  security: TENANT_SECURITY,
  request: { query: ListReviewQueueQuery },
  responses: {
    200: {
      description: 'A page of the queue',
      content: {
        'application/json': {
          schema: z
            .object({
              object: z.literal('list'),
              data: z.array(ReviewQueueItemSchema),
              has_more: z.boolean(),
              target_minutes: z.number().int(),
            })
            .openapi('ReviewQueue'),
        },
      },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter', 'invalid_cursor'),
  },
});

async function toQueueItem(
  deps: Pick<AppDeps, 'cipher'>,
  row: ReviewQueueRow,
  targetMinutes: number,
  now: Date,
) {
  const { session } = row;
  const waitingSince = row.queuedAt ?? session.submitted_at ?? session.created_at;
  const waitingMinutes = Math.max(0, Math.floor((now.getTime() - waitingSince.getTime()) / 60_000));
  return {
    object: 'review_queue_item' as const,
    session_id: session.id,
    country: session.country,
    flow: session.flow,
    tier: session.tier,
    external_user_reference: session.external_user_ref_enc
      ? await deps.cipher.decrypt(
          session.external_user_ref_enc,
          sessionCipherContext.externalUserReference(session.id),
        )
      : null,
    created_at: session.created_at.toISOString(),
    submitted_at: session.submitted_at ? session.submitted_at.toISOString() : null,
    waiting_since: waitingSince.toISOString(),
    waiting_minutes: waitingMinutes,
    target_minutes: targetMinutes,
    over_target: waitingMinutes > targetMinutes,
    reason_codes: [...new Set(row.reasons.map((reason) => reason.code))],
    claim: row.claim ? toReviewClaimObject(row.claim) : null,
  };
}

export function registerListReviewQueue(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...listReviewQueueRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const query = c.req.valid('query');
      const scope = c.get('principal');
      const tenant = await findTenant(deps.db, scope.tenantId);
      if (!tenant) throw tenantMissing();
      const page = await listPageOf(query, 'session', (id) => findSession(deps.db, scope, id));
      const now = deps.clock.now();
      const personId = scope.user?.id ?? scope.credentialId;
      const { rows, hasMore } = await listReviewQueue(
        deps.db,
        scope,
        {
          search: query.q === undefined ? undefined : await sessionSearchOf(deps.cipher, query.q),
          reasonCodes: query.reason_code,
          claim: query.claim ? { filter: query.claim, reviewerId: personId } : undefined,
        },
        page,
        now,
      );
      const target = tenant.review_target_minutes;
      const data = await Promise.all(rows.map((row) => toQueueItem(deps, row, target, now)));
      return c.json({ object: 'list' as const, data, has_more: hasMore, target_minutes: target }, 200);
    },
  );
}
