import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { revokeToken } from '../../store/auth-records.ts';

export const consoleLogoutRoute = createRoute({
  operationId: 'consoleLogout',
  method: 'post',
  path: '/v1/console/logout',
  tags: ['Console'],
  summary: 'Log out: revoke this access token',
  security: [{ ConsoleBearer: [] }],
  responses: {
    200: {
      description: 'The token is revoked',
      content: {
        'application/json': { schema: z.object({ object: z.literal('logout'), revoked: z.literal(true) }) },
      },
    },
    ...errorResponses('authentication_required', 'invalid_token', 'token_expired'),
  },
});

export function registerConsoleLogout(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  app.openapi(
    {
      ...consoleLogoutRoute,
      middleware: kit.tenant({
        consoleOnly: true,
        allowSuspendedTenant: true,
        secondFactorEnrolment: true,
        body: 'optional',
      }),
    },
    async (c) => {
      const token = c.get('principal').token;
      if (token) await revokeToken(kit.deps.db, token.jti, token.expiresAt);
      return c.json({ object: 'logout' as const, revoked: true as const }, 200);
    },
  );
}
