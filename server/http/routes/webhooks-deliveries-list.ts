import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findDelivery, listAttempts, listDeliveries } from '../../store/webhook-deliveries.ts';
import { findWebhook } from '../../store/webhooks.ts';
import { RETENTION_MS } from '../../features/webhooks/retention.ts';
import { webhookMissing } from '../../features/webhooks/webhook-missing.ts';
import { toDeliveryObject } from '../../features/webhooks/webhook-object.ts';
import { PaginationQuery } from './schemas/list-query.ts';
import { listOf } from './schemas/session-schemas.ts';
import { DELIVERY_STATUSES, DeliverySchema, WebhookIdParam } from './webhooks-schemas.ts';

const ListDeliveriesQuery = PaginationQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event_id: z.string().max(64).optional(),
}).strict();

export const listWebhookDeliveriesRoute = createRoute({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/v1/webhooks/{id}/deliveries',
  tags: ['Webhooks'],
  summary: 'The delivery log of an endpoint, newest first (30 days)',
  description:
    'Each delivery lists every attempt: number, status, response code, duration, error class; and the next scheduled attempt while pending.',
  security: TENANT_SECURITY,
  request: { params: WebhookIdParam, query: ListDeliveriesQuery },
  responses: {
    200: {
      description: 'A page of deliveries',
      content: { 'application/json': { schema: listOf(DeliverySchema, 'WebhookDeliveryList') } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'resource_missing',
      'invalid_parameter',
      'unknown_parameter',
      'invalid_cursor',
    ),
  },
});

export function registerListWebhookDeliveries(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...listWebhookDeliveriesRoute, middleware: kit.tenant({ capability: 'webhooks:read' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const query = c.req.valid('query');
      const scope = c.get('principal');
      (await findWebhook(deps.db, scope, id)) ?? webhookMissing(id);
      const page = await listPageOf(query, 'delivery of this webhook', (cursorId) =>
        findDelivery(deps.db, scope, id, cursorId),
      );
      const { rows, hasMore } = await listDeliveries(
        deps.db,
        scope,
        id,
        {
          status: query.status,
          eventId: query.event_id,
          since: new Date(deps.clock.now().getTime() - RETENTION_MS),
        },
        page,
      );
      const attempts = await listAttempts(
        deps.db,
        rows.map((row) => row.id),
      );
      const data = rows.map((row) =>
        toDeliveryObject(
          row,
          attempts.filter((attempt) => attempt.delivery_id === row.id),
        ),
      );
      return c.json({ object: 'list' as const, data, has_more: hasMore }, 200);
    },
  );
}
