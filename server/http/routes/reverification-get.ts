import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findOpenReverification } from '../../features/reverification/open-reverification.ts';
import { toReverificationObject } from '../../features/reverification/reverification-object.ts';
import { findIdentity } from '../../store/identities.ts';
import { IdentityIdPathParam, ReverificationSchema } from './reverification-schemas.ts';

export const getReverificationRoute = createRoute({
  operationId: 'getOpenReverificationRequest',
  method: 'get',
  path: '/v1/identities/{identity_id}/reverification-request',
  tags: ['Identities'],
  summary: 'The open re-verification request of an identity',
  description: '404 `no_reverification_request` when none is open.',
  security: TENANT_SECURITY,
  request: { params: IdentityIdPathParam },
  responses: {
    200: {
      description: 'The open request',
      content: { 'application/json': { schema: ReverificationSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'no_reverification_request'),
  },
});

export function registerGetReverification(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getReverificationRoute, middleware: kit.tenant({ capability: 'identities:read' }) },
    async (c) => {
      const { identity_id: identityId } = c.req.valid('param');
      const principal = c.get('principal');
      if (!(await findIdentity(deps.db, principal, identityId))) {
        throw new ApiError('resource_missing', `No identity \`${identityId}\` exists in this environment.`, {
          param: 'identity_id',
        });
      }
      // A transaction: a request whose session just ended is settled on the way.
      const open = await deps.db.transaction((tx) => findOpenReverification(tx, deps, principal, identityId));
      if (!open) {
        throw new ApiError(
          'no_reverification_request',
          `The identity \`${identityId}\` has no open re-verification request.`,
        );
      }
      return c.json(await toReverificationObject(deps, open.request, open.session), 200);
    },
  );
}
