import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import { commitWithAnswer } from '../idempotent-replay.ts';
import type { RouteKit } from '../route-kit.ts';
import { findDelivery, listAttempts, retryDeliveryNow } from '../../store/webhook-deliveries.ts';
import { findWebhook } from '../../store/webhooks.ts';
import { webhookMissing } from '../../features/webhooks/webhook-missing.ts';
import { toDeliveryObject } from '../../features/webhooks/webhook-object.ts';
import { DeliveryParams, DeliverySchema } from './webhooks-schemas.ts';

export const retryWebhookDeliveryRoute = createRoute({
  operationId: 'retryWebhookDelivery',
  method: 'post',
  path: '/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
  tags: ['Webhooks'],
  summary: 'Send a delivery again now',
  description:
    'Queues the delivery for an immediate attempt (also one that succeeded: a resend). The worker sends it within a second; follow it in the delivery log. A delivery whose attempt is in flight is returned unchanged.',
  security: TENANT_SECURITY,
  request: { params: DeliveryParams, headers: IdempotencyKeyHeader },
  responses: {
    200: { description: 'The queued delivery', content: { 'application/json': { schema: DeliverySchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'webhook_disabled'),
  },
});

export function registerRetryWebhookDelivery(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...retryWebhookDeliveryRoute, middleware: kit.tenant({ capability: 'webhooks:write' }) },
    async (c) => {
      const { id, delivery_id: deliveryId } = c.req.valid('param');
      const scope = c.get('principal');
      const webhook = (await findWebhook(deps.db, scope, id)) ?? webhookMissing(id);
      if (webhook.status !== 'active') {
        throw new ApiError(
          'webhook_disabled',
          'This endpoint is disabled: set `status` to `active` first (PATCH /v1/webhooks/{id}).',
        );
      }
      const existing = await findDelivery(deps.db, scope, id, deliveryId);
      if (!existing) {
        throw new ApiError('resource_missing', `No delivery \`${deliveryId}\` of webhook \`${id}\`.`, {
          param: 'delivery_id',
        });
      }
      const answer = await commitWithAnswer(
        c,
        deps.db,
        200,
        async (sql) => (await retryDeliveryNow(sql, scope, deliveryId, deps.clock.now())) ?? existing,
        async (row, sql) => toDeliveryObject(row, await listAttempts(sql, [row.id])),
      );
      return c.json(answer, 200);
    },
  );
}
