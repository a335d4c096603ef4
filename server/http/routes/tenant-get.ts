import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { tenantMissing, toTenantObject } from '../../features/tenants/tenant-object.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findTenant } from '../../store/tenants.ts';
import { TenantSchema } from './tenant-schemas.ts';

export const getTenantRoute = createRoute({
  operationId: 'getTenant',
  method: 'get',
  path: '/v1/tenant',
  tags: ['Tenant'],
  summary: 'The tenant of the credential',
  security: TENANT_SECURITY,
  responses: {
    200: { description: 'The tenant', content: { 'application/json': { schema: TenantSchema } } },
    ...errorResponses(...AUTH_ERRORS),
  },
});

export function registerGetTenant(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  app.openapi({ ...getTenantRoute, middleware: kit.tenant() }, async (c) => {
    const tenant = await findTenant(kit.deps.db, c.get('principal').tenantId);
    if (!tenant) throw tenantMissing();
    return c.json(toTenantObject(tenant), 200);
  });
}
