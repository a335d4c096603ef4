import type pg from 'pg';
import { purgeAuditEventsBefore } from '../../server/store/audit-events.ts';
import { claimDueReviewJobs } from '../../server/store/jobs.ts';
import { findSessionsPastEvidenceRetention, purgeEventsBefore } from '../../server/store/retention.ts';
import { findOverdueSessionIds, findSession, listSessions, type Scope } from '../../server/store/sessions.ts';
import type { SqlClient } from '../../server/store/sql-client.ts';
import { readSessionStats, sessionStatsParams } from '../../server/store/stats.ts';
import {
  claimDeliveries,
  fanOutEvents,
  purgeDeliveriesBefore,
} from '../../server/store/webhook-deliveries.ts';
import { LIVE_STATS_SQL_BEFORE_013 } from './stats-before-rollup.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The default page size of every list (server/http/routes/schemas/list-query.ts). */
const PAGE = { limit: 20 };

/** One thing the product does against the database: an API read or one round of a background worker. */
export interface Scenario {
  name: string;
  /** Request path or a worker's round: what a user or the server does often. */
  kind: 'api' | 'worker';
  /** Calls the real store function(s), which send the SQL that is recorded and explained. */
  run(sql: SqlClient): Promise<unknown>;
}

/** The largest tenant's production environment: the scope where a slow plan would hurt most. */
export const BIG_SCOPE: Scope = { tenantId: 'ten_scale_big', environment: 'production' };

interface Samples {
  sessionId: string;
  externalRefIndex: string;
  /** The position after which the 500th page of 20 starts (rows 9 981 …), and the row id it names. */
  deepCursor: { created_at: Date; id: string };
}

/** Picks real values from the seeded data for the parameterised reads. */
async function sample(client: pg.Client): Promise<Samples> {
  const any = await client.query<{ id: string; external_user_ref_index: string }>(
    `select id, external_user_ref_index from sessions
      where tenant_id = $1 and environment = $2 and external_user_ref_index is not null
      order by created_at desc offset 1234 limit 1`,
    [BIG_SCOPE.tenantId, BIG_SCOPE.environment],
  );
  // With fewer than 10 000 sessions in scope (the 10 k size) the deepest page that exists stands in.
  const deep = await client.query<{ created_at: Date; id: string }>(
    `select created_at, id from sessions where tenant_id = $1 and environment = $2
      order by created_at desc, id desc
      offset least(9979, (select count(*) - 21 from sessions where tenant_id = $1 and environment = $2)) limit 1`,
    [BIG_SCOPE.tenantId, BIG_SCOPE.environment],
  );
  const row = any.rows[0];
  const cursor = deep.rows[0];
  if (!row || !cursor) throw new Error('the seeded data has no session to sample');
  return { sessionId: row.id, externalRefIndex: row.external_user_ref_index, deepCursor: cursor };
}

export async function scenarios(client: pg.Client): Promise<Scenario[]> {
  const s = await sample(client);
  const now = new Date();
  const days30 = new Date(now.getTime() - 30 * DAY_MS);
  const startOfWindow = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 29 * DAY_MS,
  );
  let counter = 0;
  const newId = (prefix: string) => () => `${prefix}_scale_${++counter}`;
  const list = (name: string, filters: Parameters<typeof listSessions>[2]): Scenario => ({
    name,
    kind: 'api',
    run: (sql) => listSessions(sql, BIG_SCOPE, filters, PAGE),
  });
  return [
    { name: 'GET /v1/sessions/:id', kind: 'api', run: (sql) => findSession(sql, BIG_SCOPE, s.sessionId) },
    list('list: first page', {}),
    list('list: status=rejected', { statuses: ['rejected'] }),
    list('list: status=processing (rare)', { statuses: ['processing'] }),
    list('list: flow=business', { flow: 'business' }),
    list('list: tier=tier3', { tier: 'tier3' }),
    list('list: country=NG', { country: 'NG' }),
    list('list: country=ZW (none)', { country: 'ZW' }),
    list('list: external ref (blind index)', { externalUserRefIndex: s.externalRefIndex }),
    list('list: created 7–14 days ago', {
      createdGte: new Date(now.getTime() - 14 * DAY_MS),
      createdLte: new Date(now.getTime() - 7 * DAY_MS),
    }),
    {
      // What listPageOf does for starting_after: resolve the cursor's row, then read after its position.
      name: 'list: page 500 (cursor)',
      kind: 'api',
      run: async (sql) => {
        await findSession(sql, BIG_SCOPE, s.deepCursor.id);
        return listSessions(sql, BIG_SCOPE, {}, { ...PAGE, after: s.deepCursor });
      },
    },
    {
      name: 'review queue (status=review_required, asc)',
      kind: 'api',
      run: (sql) => listSessions(sql, BIG_SCOPE, { statuses: ['review_required'] }, PAGE, 'asc'),
    },
    {
      name: 'GET /v1/stats (30 days)',
      kind: 'api',
      run: (sql) => readSessionStats(sql, BIG_SCOPE, { from: startOfWindow, to: now }),
    },
    {
      // The same answer aggregated from the sessions, as before migration 013: the comparison.
      name: 'GET /v1/stats, before 013 (aggregate of sessions)',
      kind: 'api',
      run: (sql) =>
        sql.query(LIVE_STATS_SQL_BEFORE_013, sessionStatsParams(BIG_SCOPE, { from: startOfWindow, to: now })),
    },
    {
      // The delivery worker's round (server/workers/webhook-delivery-worker.ts): batch 50, fan-out 200.
      name: 'webhook fan-out',
      kind: 'worker',
      run: (sql) => fanOutEvents(sql, { now, limit: 200, newId: newId('dlv') }),
    },
    {
      name: 'webhook delivery claim',
      kind: 'worker',
      run: (sql) => claimDeliveries(sql, { now, leaseUntil: new Date(now.getTime() + 60_000), limit: 50 }),
    },
    {
      name: 'webhook delivery purge',
      kind: 'worker',
      run: (sql) => purgeDeliveriesBefore(sql, days30, 1000),
    },
    {
      name: 'review worker claim',
      kind: 'worker',
      run: (sql) =>
        claimDueReviewJobs(sql, {
          workerId: 'bench',
          now,
          leaseUntil: new Date(now.getTime() + 60_000),
          limit: 5,
        }),
    },
    { name: 'expiry sweeper', kind: 'worker', run: (sql) => findOverdueSessionIds(sql, now, 100) },
    {
      // The default retention (server/features/retention/retention-policy.ts): 90 days after a decision, 30 after
      // abandonment.
      name: 'retention: evidence candidates',
      kind: 'worker',
      run: (sql) =>
        findSessionsPastEvidenceRetention(
          sql,
          { decidedBefore: new Date(now.getTime() - 90 * DAY_MS), abandonedBefore: days30 },
          100,
        ),
    },
    { name: 'retention: event purge', kind: 'worker', run: (sql) => purgeEventsBefore(sql, days30, 100) },
    {
      name: 'audit purge',
      kind: 'worker',
      run: (sql) => purgeAuditEventsBefore(sql, new Date(now.getTime() - 365 * DAY_MS), 1000),
    },
  ];
}
