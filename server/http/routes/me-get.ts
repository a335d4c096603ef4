import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { defaultPathOfRole } from '../../domain/capabilities.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findTenant } from '../../store/tenants.ts';
import { CapabilityList, toUserObject, UserSchema } from './schemas/console-schemas.ts';

const MeResponse = z
  .object({
    object: z.literal('me'),
    user: UserSchema,
    tenant: z.object({
      object: z.literal('tenant'),
      tenant_id: z.string(),
      name: z.string(),
      status: z.string(),
    }),
    capabilities: CapabilityList,
    default_path: z.string(),
    environment: z.enum(['sandbox', 'production']),
  })
  .openapi('Me');

export const getMeRoute = createRoute({
  operationId: 'getMe',
  method: 'get',
  path: '/v1/me',
  tags: ['Console'],
  summary: 'The signed-in console user',
  description: 'Answers even while the tenant is suspended, so the console can say why nothing else works.',
  security: [{ ConsoleBearer: [] }],
  responses: {
    200: {
      description: 'The user, tenant and capabilities',
      content: { 'application/json': { schema: MeResponse } },
    },
    ...errorResponses(
      'authentication_required',
      'invalid_token',
      'token_expired',
      'user_disabled',
      'ambiguous_credentials',
    ),
  },
});

export function registerGetMe(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  app.openapi(
    { ...getMeRoute, middleware: kit.tenant({ consoleOnly: true, allowSuspendedTenant: true }) },
    async (c) => {
      const principal = c.get('principal');
      const user = principal.user as NonNullable<typeof principal.user>;
      const tenant = await findTenant(kit.deps.db, principal.tenantId);
      return c.json(
        {
          object: 'me' as const,
          user: toUserObject({ ...user, tenant_id: principal.tenantId }),
          tenant: {
            object: 'tenant' as const,
            tenant_id: principal.tenantId,
            name: tenant?.name ?? '',
            status: tenant?.status ?? principal.tenantStatus,
          },
          capabilities: [...principal.capabilities],
          default_path: defaultPathOfRole(user.role),
          environment: principal.environment,
        },
        200,
      );
    },
  );
}
