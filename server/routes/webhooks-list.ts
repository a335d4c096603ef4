import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../errors/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../http/openapi-common.ts';
import type { RouteKit } from '../http/route-kit.ts';
import { findWebhook, listWebhooks } from '../store/webhooks.ts';
import { toWebhookObject } from '../webhooks/webhook-object.ts';
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
      if (query.starting_after && query.ending_before) {
        throw new ApiError('invalid_cursor', 'Send `starting_after` or `ending_before`, not both.', {
          param: 'ending_before',
        });
      }
      const cursorId = query.starting_after ?? query.ending_before;
      const cursor = cursorId ? await findWebhook(deps.db, scope, cursorId) : null;
      if (cursorId && !cursor) {
        throw new ApiError('invalid_cursor', `No webhook \`${cursorId}\` to page from.`, {
          param: query.starting_after ? 'starting_after' : 'ending_before',
        });
      }
      const position = cursor ? { created_at: cursor.created_at, id: cursor.id } : undefined;
      const { rows, hasMore } = await listWebhooks(deps.db, scope, {
        limit: query.limit,
        ...(query.starting_after ? { after: position } : { before: position }),
      });
      const now = deps.clock.now();
      return c.json(
        { object: 'list' as const, data: rows.map((row) => toWebhookObject(row, now)), has_more: hasMore },
        200,
      );
    },
  );
}
