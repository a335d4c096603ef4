import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { identityView } from '../../features/identities/identity-view.ts';
import { findIdentity } from '../../store/identities.ts';
import { IdentityIdParam, IdentitySchema } from './identities-schemas.ts';

export const getIdentityRoute = createRoute({
  operationId: 'getIdentity',
  method: 'get',
  path: '/v1/identities/{id}',
  tags: ['Identities'],
  summary: 'An identity with its verified attributes',
  description:
    'The `identity_id` of a `session.approved` or `identity.created` event. Personal values are masked without `identities:read_pii`.',
  security: TENANT_SECURITY,
  request: { params: IdentityIdParam },
  responses: {
    200: { description: 'The identity', content: { 'application/json': { schema: IdentitySchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetIdentity(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getIdentityRoute, middleware: kit.tenant({ capability: 'identities:read' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const principal = c.get('principal');
      const row = await findIdentity(deps.db, principal, id);
      if (!row) {
        throw new ApiError('resource_missing', `No identity \`${id}\` exists in this environment.`, {
          param: 'id',
        });
      }
      return c.json(await identityView(deps.db, deps, principal, row), 200);
    },
  );
}
