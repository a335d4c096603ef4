import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { updateWebhook, type WebhookChanges } from '../../store/webhooks.ts';
import { assertWebhookUrlAllowed } from '../../features/webhooks/check-webhook-url.ts';
import { webhookMissing } from '../../features/webhooks/webhook-missing.ts';
import { toWebhookObject } from '../../features/webhooks/webhook-object.ts';
import { UpdateWebhookBody, WebhookIdParam, WebhookSchema } from './webhooks-schemas.ts';

export const updateWebhookRoute = createRoute({
  operationId: 'updateWebhook',
  method: 'patch',
  path: '/v1/webhooks/{id}',
  tags: ['Webhooks'],
  summary: 'Change a webhook endpoint',
  description:
    'Change `url`, `events`, `description`, or `status` (`disabled` pauses deliveries; `active` resumes them, including those queued while disabled).',
  security: TENANT_SECURITY,
  request: {
    params: WebhookIdParam,
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: UpdateWebhookBody } } },
  },
  responses: {
    200: { description: 'The endpoint', content: { 'application/json': { schema: WebhookSchema } } },
    ...errorResponses(
      ...AUTH_ERRORS,
      'resource_missing',
      'invalid_json',
      'invalid_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'webhook_url_not_allowed',
    ),
  },
});

export function registerUpdateWebhook(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...updateWebhookRoute, middleware: kit.tenant({ capability: 'webhooks:write', body: 'json' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const scope = c.get('principal');
      if (body.url !== undefined) await assertWebhookUrlAllowed(deps, scope.environment, body.url);
      const changes: WebhookChanges = {};
      if (body.url !== undefined) changes.url = body.url;
      if (body.events !== undefined) changes.events = body.events;
      if (body.description !== undefined) changes.description = body.description || null;
      if (body.status !== undefined) {
        changes.status = body.status;
        // Re-enabling clears why it was disabled; a hand-disabled endpoint has no service reason.
        changes.disabled_reason = null;
      }
      const now = deps.clock.now();
      const row = (await updateWebhook(deps.db, scope, id, changes, now)) ?? webhookMissing(id);
      return c.json(toWebhookObject(row, now), 200);
    },
  );
}
