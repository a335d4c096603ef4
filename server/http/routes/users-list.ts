import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ROLES } from '../../domain/capabilities.ts';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findTenantUserPosition, listTenantUsers, USER_STATUSES } from '../../store/users.ts';
import { PaginationQuery, repeatable } from './schemas/list-query.ts';
import { listOf } from './schemas/session-schemas.ts';
import { TenantUserSchema, toTenantUserObject } from './users-schemas.ts';

const ListUsersQuery = PaginationQuery.extend({
  status: repeatable(z.enum(USER_STATUSES)).optional().openapi({ description: 'Repeatable.' }),
  role: repeatable(z.enum(ROLES)).optional().openapi({ description: 'Repeatable.' }),
}).strict();

export const listUsersRoute = createRoute({
  operationId: 'listUsers',
  method: 'get',
  path: '/v1/users',
  tags: ['Users'],
  summary: 'List the tenant’s console users, newest first',
  description:
    'Needs `users:write` (tenant admins): the list holds every colleague’s e-mail address, which no other role needs to see. Users belong to the tenant, not to an environment.',
  security: [{ ConsoleBearer: [] }],
  request: { query: ListUsersQuery },
  responses: {
    200: {
      description: 'A page of users',
      content: { 'application/json': { schema: listOf(TenantUserSchema, 'TenantUserList') } },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter', 'invalid_cursor'),
  },
});

export function registerListUsers(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...listUsersRoute, middleware: kit.tenant({ capability: 'users:write' }) }, async (c) => {
    const query = c.req.valid('query');
    const { tenantId } = c.get('principal');
    const page = await listPageOf(query, 'user', (id) => findTenantUserPosition(deps.db, tenantId, id));
    const { rows, hasMore } = await listTenantUsers(
      deps.db,
      tenantId,
      { statuses: query.status, roles: query.role },
      page,
    );
    return c.json({ object: 'list' as const, data: rows.map(toTenantUserObject), has_more: hasMore }, 200);
  });
}
