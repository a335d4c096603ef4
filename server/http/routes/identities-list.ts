import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { identityView } from '../../features/identities/identity-view.ts';
import { findIdentity, listIdentities } from '../../store/identities.ts';
import { IdentitySchema } from './identities-schemas.ts';
import { PaginationQuery } from './schemas/list-query.ts';
import { listOf } from './schemas/session-schemas.ts';

const ListIdentitiesQuery = PaginationQuery.extend({
  external_user_reference: z.string().max(255).optional(),
}).strict();

export const listIdentitiesRoute = createRoute({
  operationId: 'listIdentities',
  method: 'get',
  path: '/v1/identities',
  tags: ['Identities'],
  summary: 'List identities, newest first',
  security: TENANT_SECURITY,
  request: { query: ListIdentitiesQuery },
  responses: {
    200: {
      description: 'A page of identities',
      content: { 'application/json': { schema: listOf(IdentitySchema, 'IdentityList') } },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter', 'invalid_cursor'),
  },
});

export function registerListIdentities(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...listIdentitiesRoute, middleware: kit.tenant({ capability: 'identities:read' }) },
    async (c) => {
      const query = c.req.valid('query');
      const principal = c.get('principal');
      const page = await listPageOf(query, 'identity', (id) => findIdentity(deps.db, principal, id));
      const { rows, hasMore } = await listIdentities(
        deps.db,
        principal,
        {
          externalUserRefIndex: query.external_user_reference
            ? await deps.cipher.blindIndex(query.external_user_reference, 'external_user_reference')
            : undefined,
        },
        page,
      );
      const data = [];
      for (const row of rows) data.push(await identityView(deps.db, deps, principal, row));
      return c.json({ object: 'list' as const, data, has_more: hasMore }, 200);
    },
  );
}
