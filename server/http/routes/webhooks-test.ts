import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { insertEvent } from '../../store/events.ts';
import { claimDeliveries, insertDelivery, markEventFannedOut } from '../../store/webhook-deliveries.ts';
import { findWebhook } from '../../store/webhooks.ts';
import { attemptDelivery, DELIVERY_TIMEOUT_MS } from '../../features/webhooks/attempt-delivery.ts';
import { webhookMissing } from '../../features/webhooks/webhook-missing.ts';
import type { SendResult } from '../../features/webhooks/webhook-sender.ts';
import { WebhookIdParam } from './webhooks-schemas.ts';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/**
 * What a test tells the caller: whether the receiver took it (a 2xx) and, when it answered at all, the
 * class of its status. Never the exact status, the error, the timing or the body: the endpoint must not
 * become a way to probe what answers where.
 */
export const WebhookTestOutcomeSchema = z
  .object({
    object: z.literal('webhook_test'),
    delivery_id: z.string(),
    event_id: z.string(),
    delivered: z.boolean().openapi({ description: 'True when the receiver answered with a 2xx status.' }),
    status_class: z
      .enum(STATUS_CLASSES)
      .nullable()
      .openapi({ description: "The class of the receiver's HTTP status; null when no answer came." }),
  })
  .openapi('WebhookTestResult');

/**
 * The class of the receiver's status, or null when there was no HTTP answer.
 *
 * @example
 * statusClassOf({ kind: 'response', status: 418, retryAfter: null }) // '4xx'
 */
export function statusClassOf(result: SendResult): (typeof STATUS_CLASSES)[number] | null {
  if (result.kind !== 'response') return null;
  return STATUS_CLASSES.find((name) => name[0] === String(result.status)[0]) ?? null;
}

export const testWebhookRoute = createRoute({
  operationId: 'testWebhook',
  method: 'post',
  path: '/v1/webhooks/{id}/test',
  tags: ['Webhooks'],
  summary: 'Send a `webhook.test` event now',
  description:
    'Sends one signed `webhook.test` delivery (also to a disabled endpoint, to check it before re-enabling) and reports only whether it was delivered and the class of the receiver’s status (`2xx`…), never its body or network details. It is not retried and appears in the delivery log.',
  security: TENANT_SECURITY,
  request: { params: WebhookIdParam },
  responses: {
    200: {
      description: 'What the receiver answered',
      content: { 'application/json': { schema: WebhookTestOutcomeSchema } },
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
      const { result } = await attemptDelivery(deps, delivery, {
        retry: false,
        disableOnGone: false,
        random: Math.random,
      });
      return c.json(
        {
          object: 'webhook_test' as const,
          delivery_id: deliveryId,
          event_id: eventId,
          delivered: result.kind === 'response' && result.status >= 200 && result.status < 300,
          status_class: statusClassOf(result),
        },
        200,
      );
    },
  );
}
