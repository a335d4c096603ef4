import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { toSessionObject } from '../../features/sessions/session-object.ts';
import { readSession } from '../../features/sessions/transition-session.ts';
import { findSession } from '../../store/sessions.ts';
import { SessionIdParam, SessionSchema } from './schemas/session-schemas.ts';

export const getSessionRoute = createRoute({
  operationId: 'getSession',
  method: 'get',
  path: '/v1/sessions/{id}',
  tags: ['Sessions'],
  summary: 'Retrieve a session',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam },
  responses: {
    200: { description: 'The session', content: { 'application/json': { schema: SessionSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...getSessionRoute, middleware: kit.tenant({ capability: 'sessions:read' }) }, async (c) => {
    const { id } = c.req.valid('param');
    const scope = c.get('principal');
    const row = await readSession(deps.db, deps, scope, id, await findSession(deps.db, scope, id));
    return c.json(await toSessionObject(deps, row), 200);
  });
}
