import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { userMissing } from '../../features/users/user-missing.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findTenantUser } from '../../store/users.ts';
import { TenantUserSchema, toTenantUserObject, UserIdParam } from './users-schemas.ts';

export const getUserRoute = createRoute({
  operationId: 'getUser',
  method: 'get',
  path: '/v1/users/{id}',
  tags: ['Users'],
  summary: 'Get a console user of the tenant',
  description: 'Needs `users:write`. Another tenant’s user is 404.',
  security: [{ ConsoleBearer: [] }],
  request: { params: UserIdParam },
  responses: {
    200: { description: 'The user', content: { 'application/json': { schema: TenantUserSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetUser(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...getUserRoute, middleware: kit.tenant({ capability: 'users:write' }) }, async (c) => {
    const { id } = c.req.valid('param');
    const row = (await findTenantUser(deps.db, c.get('principal').tenantId, id)) ?? userMissing(id);
    return c.json(toTenantUserObject(row), 200);
  });
}
