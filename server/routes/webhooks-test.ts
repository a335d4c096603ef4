import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../http/openapi-common.ts';
import type { RouteKit } from '../http/route-kit.ts';
import { insertEvent } from '../store/events.ts';
import { claimDeliveries, insertDelivery, markEventFannedOut } from '../store/webhook-deliveries.ts';
import { findWebhook } from '../store/webhooks.ts';
import { attemptDelivery, DELIVERY_TIMEOUT_MS } from '../webhooks/attempt-delivery.ts';
import { webhookMissing } from '../webhooks/webhook-missing.ts';
import { WebhookIdParam, WebhookTestResultSchema } from './webhooks-schemas.ts';

export const testWebhookRoute = createRoute({
  operationId: 'testWebhook',
  method: 'post',
  path: '/v1/webhooks/{id}/test',
  tags: ['Webhooks'],
  summary: 'Send a `webhook.test` event now',
  description:
    'Sends one signed `webhook.test` delivery (also to a disabled endpoint, to check it before re-enabling) and returns only the receiver’s status code, never its body. It is not retried and appears in the delivery log.',
  security: TENANT_SECURITY,
  request: { params: WebhookIdParam },
  responses: {
    200: {
      description: 'What the receiver answered',
      content: { 'application/json': { schema: WebhookTestResultSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerTestWebhook(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...testWebhookRoute, middleware: kit.tenant({ capability: 'webhooks:write' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const scope = c.get('principal');
      const now = deps.clock.now();
      const eventId = deps.ids('evt');
      const deliveryId = deps.ids('dlv');
      const claimed = await deps.db.transaction(async (tx) => {
        const webhook = (await findWebhook(tx, scope, id)) ?? webhookMissing(id);
        await insertEvent(tx, {
          id: eventId,
          tenant_id: scope.tenantId,
          environment: scope.environment,
          type: 'webhook.test',
          session_id: null,
          identity_id: null,
          payload: {
            event: 'webhook.test',
            event_id: eventId,
            created_at: now.toISOString(),
            environment: scope.environment,
            webhook_id: webhook.id,
          },
          created_at: now,
        });
        // Only this endpoint gets it: the fan-out must not send it to every `*` subscriber.
        await markEventFannedOut(tx, eventId, now);
        await insertDelivery(tx, {
          id: deliveryId,
          tenant_id: scope.tenantId,
          environment: scope.environment,
          webhook_id: webhook.id,
          event_id: eventId,
          event_type: 'webhook.test',
          now,
          nextAttemptAt: null,
        });
        return claimDeliveries(tx, {
          now,
          leaseUntil: new Date(now.getTime() + DELIVERY_TIMEOUT_MS * 4),
          limit: 1,
          deliveryId,
        });
      });
      const delivery = claimed[0] ?? webhookMissing(id);
      const { result, durationMs } = await attemptDelivery(deps, delivery, {
        retry: false,
        disableOnGone: false,
        random: Math.random,
      });
      return c.json(
        {
          object: 'webhook_test' as const,
          delivery_id: deliveryId,
          event_id: eventId,
          status_code: result.kind === 'response' ? result.status : null,
          error_class: result.kind === 'error' ? result.errorClass : null,
          duration_ms: durationMs,
        },
        200,
      );
    },
  );
}
