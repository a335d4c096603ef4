import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { isOverdue } from '../../domain/session-status.ts';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { toSessionObject } from '../../features/sessions/session-object.ts';
import { readSession } from '../../features/sessions/transition-session.ts';
import { findSession, listSessions } from '../../store/sessions.ts';
import { PaginationQuery } from './schemas/list-query.ts';
import { SessionFiltersQuery, sessionFiltersOf } from './schemas/session-filters-query.ts';
import { listOf, SessionSchema } from './schemas/session-schemas.ts';

const ListSessionsQuery = PaginationQuery.extend(SessionFiltersQuery.shape).strict();

export const listSessionsRoute = createRoute({
  operationId: 'listSessions',
  method: 'get',
  path: '/v1/sessions',
  tags: ['Sessions'],
  summary: 'List sessions, newest first (or oldest first)',
  security: TENANT_SECURITY,
  request: { query: ListSessionsQuery },
  responses: {
    200: {
      description: 'A page of sessions',
      content: { 'application/json': { schema: listOf(SessionSchema, 'SessionList') } },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter', 'invalid_cursor'),
  },
});

export function registerListSessions(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...listSessionsRoute, middleware: kit.tenant({ capability: 'sessions:read' }) },
    async (c) => {
      const query = c.req.valid('query');
      const scope = c.get('principal');
      const page = await listPageOf(query, 'session', (id) => findSession(deps.db, scope, id));
      const { rows, hasMore } = await listSessions(
        deps.db,
        scope,
        await sessionFiltersOf(deps.cipher, query),
        page,
        query.order,
      );
      const now = deps.clock.now();
      const data = [];
      for (const row of rows) {
        // Rare: an overdue session the sweeper has not reached yet is expired before it is shown.
        const current = isOverdue(row.status, row.expires_at, now)
          ? await readSession(deps.db, deps, scope, row.id, row)
          : row;
        data.push(await toSessionObject(deps, current));
      }
      return c.json({ object: 'list' as const, data, has_more: hasMore }, 200);
    },
  );
}
