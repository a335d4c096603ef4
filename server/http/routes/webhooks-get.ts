import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findWebhook } from '../../store/webhooks.ts';
import { webhookMissing } from '../../features/webhooks/webhook-missing.ts';
import { toWebhookObject } from '../../features/webhooks/webhook-object.ts';
import { WebhookIdParam, WebhookSchema } from './webhooks-schemas.ts';

export const getWebhookRoute = createRoute({
  operationId: 'getWebhook',
  method: 'get',
  path: '/v1/webhooks/{id}',
  tags: ['Webhooks'],
  summary: 'Retrieve a webhook endpoint',
  security: TENANT_SECURITY,
  request: { params: WebhookIdParam },
  responses: {
    200: { description: 'The endpoint', content: { 'application/json': { schema: WebhookSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetWebhook(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...getWebhookRoute, middleware: kit.tenant({ capability: 'webhooks:read' }) }, async (c) => {
    const { id } = c.req.valid('param');
    const row = (await findWebhook(deps.db, c.get('principal'), id)) ?? webhookMissing(id);
    return c.json(toWebhookObject(row, deps.clock.now()), 200);
  });
}
