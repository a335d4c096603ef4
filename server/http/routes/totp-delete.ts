import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { removeSecondFactor } from '../../features/second-factors/removal.ts';
import { ApiError } from '../../errors/api-error.ts';
import { deleteTotp } from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';

export const deleteTotpRoute = createRoute({
  operationId: 'deleteTotp',
  method: 'delete',
  path: '/v1/me/second-factors/totp',
  tags: ['Console'],
  summary: 'Remove your authenticator app',
  description:
    'Needs a session that proved a second factor (403 `second_factor_required` otherwise). A tenant that requires a second factor refuses the removal of your last one (409 `last_second_factor`).',
  security: [{ ConsoleBearer: [] }],
  responses: {
    200: {
      description: 'Removed',
      content: {
        'application/json': { schema: z.object({ object: z.literal('totp'), deleted: z.literal(true) }) },
      },
    },
    ...errorResponses(
      'authentication_required',
      'invalid_token',
      'token_expired',
      'user_disabled',
      'tenant_suspended',
      'second_factor_required',
      'resource_missing',
      'last_second_factor',
    ),
  },
});

export function registerDeleteTotp(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  app.openapi({ ...deleteTotpRoute, middleware: kit.tenant({ consoleOnly: true }) }, async (c) => {
    const removed = await removeSecondFactor(c, kit.deps, deleteTotp, { action: 'user.totp_removed' });
    if (!removed) throw new ApiError('resource_missing', 'No authenticator app is enrolled.');
    return c.json({ object: 'totp' as const, deleted: true as const }, 200);
  });
}
