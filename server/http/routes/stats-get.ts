import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ENVIRONMENTS, type Environment } from '../../domain/api-key-format.ts';
import { SESSION_STATUSES } from '../../domain/session-status.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv, Principal } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { readSessionStats } from '../../store/stats.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_DAYS = 90;

const StatsQuery = z
  .object({
    environment: z.enum(ENVIRONMENTS).optional().openapi({
      description:
        'For a console token, the environment to report on (as `x-environment`; both must agree). For an API key, its own environment or nothing.',
    }),
    days: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_DAYS)
      .default(30)
      .openapi({ description: `1–${MAX_DAYS}, default 30: today (UTC) and the days before it.` }),
  })
  .strict();

const DayCountsSchema = z.object({
  date: z.string().openapi({ example: '2025-03-14' }),
  created: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  review_required: z.number().int(),
});

const StatsSchema = z
  .object({
    object: z.literal('stats'),
    environment: z.enum(ENVIRONMENTS),
    days: z.number().int(),
    from: z.string().openapi({ description: 'Start of the first day (00:00 UTC).' }),
    to: z.string().openapi({ description: 'The moment of the read.' }),
    sessions: z.object({
      total: z.number().int(),
      by_status: z.record(z.enum(SESSION_STATUSES), z.number().int()),
    }),
    approval_rate: z.number().nullable().openapi({
      description: 'approved ÷ (approved + rejected) among the window’s sessions; null when none is decided.',
    }),
    median_seconds_to_decision: z.number().nullable().openapi({
      description:
        'Median time from submission to approval or rejection (manual reviews included; durations rounded to whole seconds); null when none.',
    }),
    per_day: z.array(DayCountsSchema).openapi({
      description:
        'One entry per UTC day, oldest first: the sessions created that day and what has become of them.',
    }),
    review_queue: z.object({
      length: z.number().int().openapi({ description: 'Sessions in `review_required` now, of any age.' }),
      oldest_since: z
        .string()
        .nullable()
        .openapi({ description: 'When the longest-waiting one was handed over.' }),
      oldest_age_seconds: z.number().int().nullable(),
    }),
  })
  .openapi('Stats');

export const getStatsRoute = createRoute({
  operationId: 'getStats',
  method: 'get',
  path: '/v1/stats',
  tags: ['Stats'],
  summary: 'Dashboard statistics of the sessions',
  description:
    'Counts by status, approval rate, median time to decision and per-day counts over the sessions created in the last `days` days, plus the review queue, for one environment. Needs `sessions:read`.',
  security: TENANT_SECURITY,
  request: { query: StatsQuery },
  responses: {
    200: { description: 'The statistics', content: { 'application/json': { schema: StatsSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter'),
  },
});

/**
 * The environment is the credential's (API.md §1): `environment` may only name it again. A console user
 * may pick it here instead of with `x-environment`, but the two cannot disagree.
 */
function environmentOf(principal: Principal, asked: Environment | undefined, header: string | undefined) {
  if (asked === undefined || asked === principal.environment) return principal.environment;
  if (principal.kind === 'user' && header === undefined) return asked;
  throw new ApiError(
    'invalid_parameter',
    principal.kind === 'user'
      ? '`environment` and `x-environment` name different environments.'
      : `This API key belongs to \`${principal.environment}\`; \`environment\` cannot name another.`,
    { param: 'environment' },
  );
}

export function registerGetStats(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...getStatsRoute, middleware: kit.tenant({ capability: 'sessions:read' }) }, async (c) => {
    const query = c.req.valid('query');
    const principal = c.get('principal');
    const environment = environmentOf(principal, query.environment, c.req.header('x-environment'));
    const now = deps.clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (query.days - 1) * DAY_MS);
    const stats = await readSessionStats(
      deps.db,
      { tenantId: principal.tenantId, environment },
      { from, to: now },
    );
    const approved = stats.byStatus.approved;
    const decided = approved + stats.byStatus.rejected;
    const oldest = stats.reviewQueueOldestSince;
    return c.json(
      {
        object: 'stats' as const,
        environment,
        days: query.days,
        from: from.toISOString(),
        to: now.toISOString(),
        sessions: {
          total: Object.values(stats.byStatus).reduce((sum, count) => sum + count, 0),
          by_status: stats.byStatus,
        },
        approval_rate: decided === 0 ? null : approved / decided,
        median_seconds_to_decision: stats.medianSecondsToDecision,
        per_day: stats.perDay,
        review_queue: {
          length: stats.reviewQueueLength,
          oldest_since: oldest?.toISOString() ?? null,
          oldest_age_seconds: oldest
            ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000))
            : null,
        },
      },
      200,
    );
  });
}
