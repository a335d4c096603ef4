import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findEvent } from '../../store/event-feed.ts';
import { RETENTION_MS } from '../../features/webhooks/retention.ts';
import { toEventObject } from '../../features/webhooks/webhook-object.ts';
import { EventIdParam, EventSchema } from './webhooks-schemas.ts';

export const getEventRoute = createRoute({
  operationId: 'getEvent',
  method: 'get',
  path: '/v1/events/{id}',
  tags: ['Events'],
  summary: 'Retrieve an event (kept 30 days)',
  security: TENANT_SECURITY,
  request: { params: EventIdParam },
  responses: {
    200: { description: 'The event', content: { 'application/json': { schema: EventSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetEvent(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...getEventRoute, middleware: kit.tenant({ capability: 'webhooks:read' }) }, async (c) => {
    const { id } = c.req.valid('param');
    const since = new Date(deps.clock.now().getTime() - RETENTION_MS);
    const row = await findEvent(deps.db, c.get('principal'), id, since);
    if (!row) {
      throw new ApiError('resource_missing', `No event \`${id}\` in this environment in the last 30 days.`, {
        param: 'id',
      });
    }
    return c.json(toEventObject(row), 200);
  });
}
