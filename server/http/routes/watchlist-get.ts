import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findWatchlist } from '../../store/watchlists.ts';
import { toWatchlistObject } from '../../features/watchlist/watchlist-object.ts';
import { WatchlistSchema } from './watchlist-schemas.ts';

export const getWatchlistRoute = createRoute({
  operationId: 'getWatchlist',
  method: 'get',
  path: '/v1/watchlist',
  tags: ['Watchlist'],
  summary: 'The screening list in force',
  security: TENANT_SECURITY,
  responses: {
    200: { description: 'The list', content: { 'application/json': { schema: WatchlistSchema } } },
    ...errorResponses(...AUTH_ERRORS),
  },
});

export function registerGetWatchlist(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getWatchlistRoute, middleware: kit.tenant({ capability: 'watchlist:read' }) },
    async (c) => {
      const principal = c.get('principal');
      return c.json(toWatchlistObject(principal.environment, await findWatchlist(deps.db, principal)), 200);
    },
  );
}
