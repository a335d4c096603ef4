import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { deleteWebhook } from '../../store/webhooks.ts';
import { webhookMissing } from '../../features/webhooks/webhook-missing.ts';
import { DeletedWebhookSchema, WebhookIdParam } from './webhooks-schemas.ts';

export const deleteWebhookRoute = createRoute({
  operationId: 'deleteWebhook',
  method: 'delete',
  path: '/v1/webhooks/{id}',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description: 'Stops deliveries at once; queued ones are cancelled. The secret is destroyed with it.',
  security: TENANT_SECURITY,
  request: { params: WebhookIdParam },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: DeletedWebhookSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerDeleteWebhook(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...deleteWebhookRoute, middleware: kit.tenant({ capability: 'webhooks:write' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const deleted = await deps.db.transaction((tx) =>
        deleteWebhook(tx, c.get('principal'), id, deps.clock.now()),
      );
      if (!deleted) webhookMissing(id);
      return c.json({ object: 'webhook' as const, webhook_id: id, deleted: true as const }, 200);
    },
  );
}
