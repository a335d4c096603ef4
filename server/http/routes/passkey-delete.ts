import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { removeSecondFactor } from '../../features/second-factors/removal.ts';
import { ApiError } from '../../errors/api-error.ts';
import { deletePasskey } from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { PasskeyIdParam } from './schemas/second-factor-schemas.ts';

export const deletePasskeyRoute = createRoute({
  operationId: 'deletePasskey',
  method: 'delete',
  path: '/v1/me/second-factors/passkeys/{id}',
  tags: ['Console'],
  summary: 'Remove one of your passkeys',
  description:
    'Needs a session that proved a second factor (403 `second_factor_required` otherwise). A tenant that requires a second factor refuses the removal of your last one (409 `last_second_factor`).',
  security: [{ ConsoleBearer: [] }],
  request: { params: PasskeyIdParam },
  responses: {
    200: {
      description: 'Removed',
      content: {
        'application/json': {
          schema: z.object({
            object: z.literal('passkey'),
            passkey_id: z.string(),
            deleted: z.literal(true),
          }),
        },
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

export function registerDeletePasskey(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  app.openapi({ ...deletePasskeyRoute, middleware: kit.tenant({ consoleOnly: true }) }, async (c) => {
    const { id } = c.req.valid('param');
    const removed = await removeSecondFactor(c, kit.deps, (tx, userId) => deletePasskey(tx, userId, id), {
      action: 'user.passkey_removed',
      details: { passkey_id: id },
    });
    if (!removed) throw new ApiError('resource_missing', 'You have no passkey with this id.');
    return c.json({ object: 'passkey' as const, passkey_id: id, deleted: true as const }, 200);
  });
}
