import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findEvent, listEvents } from '../../store/event-feed.ts';
import { RETENTION_MS } from '../../features/webhooks/retention.ts';
import { toEventObject } from '../../features/webhooks/webhook-object.ts';
import { PaginationQuery, repeatable } from './schemas/list-query.ts';
import { listOf } from './schemas/session-schemas.ts';
import { EventSchema } from './webhooks-schemas.ts';

const ListEventsQuery = PaginationQuery.extend({
  type: repeatable(z.string().max(64))
    .optional()
    .openapi({ description: 'Repeatable, e.g. `session.approved`.' }),
  session_id: z.string().max(64).optional(),
  identity_id: z.string().max(64).optional(),
}).strict();

export const listEventsRoute = createRoute({
  operationId: 'listEvents',
  method: 'get',
  path: '/v1/events',
  tags: ['Events'],
  summary: 'List events of the last 30 days, newest first',
  description: 'The same thin payloads webhooks carry; use it to reconcile after an outage of your receiver.',
  security: TENANT_SECURITY,
  request: { query: ListEventsQuery },
  responses: {
    200: {
      description: 'A page of events',
      content: { 'application/json': { schema: listOf(EventSchema, 'EventList') } },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter', 'invalid_cursor'),
  },
});

export function registerListEvents(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...listEventsRoute, middleware: kit.tenant({ capability: 'webhooks:read' }) }, async (c) => {
    const query = c.req.valid('query');
    const scope = c.get('principal');
    const since = new Date(deps.clock.now().getTime() - RETENTION_MS);
    const page = await listPageOf(query, 'event', (id) => findEvent(deps.db, scope, id, since));
    const { rows, hasMore } = await listEvents(
      deps.db,
      scope,
      { since, types: query.type, sessionId: query.session_id, identityId: query.identity_id },
      page,
    );
    return c.json({ object: 'list' as const, data: rows.map(toEventObject), has_more: hasMore }, 200);
  });
}
