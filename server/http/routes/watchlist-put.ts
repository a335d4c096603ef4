import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { replaceWatchlist } from '../../store/watchlists.ts';
import { toWatchlistObject } from '../../features/watchlist/watchlist-object.ts';
import { PutWatchlistBody, WatchlistSchema } from './watchlist-schemas.ts';

export const putWatchlistRoute = createRoute({
  operationId: 'putWatchlist',
  method: 'put',
  path: '/v1/watchlist',
  tags: ['Watchlist'],
  summary: 'Replace the screening list',
  description:
    'The list tier3 sessions are screened against, per environment, replaced as a whole. Names match fuzzily: case, diacritics, token order and small typos are ignored; a known birth date that disagrees rules an entry out. Hits lead to `review_required` with `watchlist_hit`. An empty list screens against nothing (every screening passes). Bodies are limited to 64 KB.',
  security: TENANT_SECURITY,
  request: {
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: PutWatchlistBody } } },
  },
  responses: {
    200: {
      description: 'The list now in force',
      content: { 'application/json': { schema: WatchlistSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'payload_too_large',
      'unsupported_media_type',
    ),
  },
});

export function registerPutWatchlist(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...putWatchlistRoute, middleware: kit.tenant({ capability: 'watchlist:write', body: 'json' }) },
    async (c) => {
      const { entries } = c.req.valid('json');
      const principal = c.get('principal');
      const row = await replaceWatchlist(deps.db, principal, entries, deps.clock.now());
      return c.json(toWatchlistObject(principal.environment, row), 200);
    },
  );
}
