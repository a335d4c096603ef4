import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findWebhook, listWebhooks } from '../../store/webhooks.ts';
import { toWebhookObject } from '../../features/webhooks/webhook-object.ts';
import { PaginationQuery } from './schemas/list-query.ts';
import { listOf } from './schemas/session-schemas.ts';
import { WebhookSchema } from './webhooks-schemas.ts';

export const listWebhooksRoute = createRoute({
  operationId: 'listWebhooks',
  method: 'get',
  path: '/v1/webhooks',
  tags: ['Webhooks'],
  summary: 'List webhook endpoints, newest first',
  security: TENANT_SECURITY,
  request: { query: PaginationQuery.strict() },
  responses: {
    200: {
      description: 'A page of endpoints (never their secrets)',
      content: { 'application/json': { schema: listOf(WebhookSchema, 'WebhookList') } },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter', 'invalid_cursor'),
  },
});

export function registerListWebhooks(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...listWebhooksRoute, middleware: kit.tenant({ capability: 'webhooks:read' }) },
    async (c) => {
      const query = c.req.valid('query');
      const scope = c.get('principal');
      const page = await listPageOf(query, 'webhook', (id) => findWebhook(deps.db, scope, id));
      const { rows, hasMore } = await listWebhooks(deps.db, scope, page);
      const now = deps.clock.now();
      return c.json(
        { object: 'list' as const, data: rows.map((row) => toWebhookObject(row, now)), has_more: hasMore },
        200,
      );
    },
  );
}
