import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { postgresDatabase } from '../../../server/runtime/node/pg-database.ts';
import type { Environment } from '../../../server/domain/api-key-format.ts';
import type { SessionStatus } from '../../../server/domain/session-status.ts';
import { migrate } from '../../../server/store/migrate.ts';
import { MIGRATIONS } from '../../../server/store/migrations/index.ts';
import { insertSession, type Scope, updateSession } from '../../../server/store/sessions.ts';
import { pgliteDatabase } from '../../../server/store/pglite-database.ts';
import type { Database, SqlClient } from '../../../server/store/sql-client.ts';
import {
  readSessionStats,
  SESSION_STATS_SQL,
  type SessionStats,
  sessionStatsParams,
} from '../../../server/store/stats.ts';
import { createTestDatabase, type Engine, testEngines } from '../support/test-database.ts';

/**
 * The dashboard statistics read per-day counters that triggers keep (migration 013). These tests hold them
 * to a live count over the sessions themselves after inserts (one by one through the store, and in bulk),
 * every kind of status transition through the store's compare-and-set update, changes of the decision
 * times, deletes and a rolled-back transaction; and check that the migration's backfill counts what was
 * there before the triggers existed.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const TENANTS = ['ten_rollup_a', 'ten_rollup_b'];
const ENVIRONMENTS: Environment[] = ['production', 'sandbox'];
const SCOPES: Scope[] = TENANTS.flatMap((tenantId) =>
  ENVIRONMENTS.map((environment) => ({ tenantId, environment })),
);

/** The statement the console ran before migration 013: an aggregate over the window's sessions. */
const LIVE_STATS_SQL = `
  with recent as (
    select status, created_at, submitted_at, decided_at from sessions
     where tenant_id = $1 and environment = $2 and created_at >= $3 and created_at <= $4
  )
  select
    (select coalesce(jsonb_object_agg(status, n), '{}'::jsonb)
       from (select status, count(*)::int as n from recent group by status) s) as by_status,
    (select jsonb_agg(jsonb_build_object('date', to_char(day, 'YYYY-MM-DD'), 'created', created,
              'approved', approved, 'rejected', rejected, 'review_required', review_required) order by day)
       from (select d.day, count(r.status)::int as created,
                    count(*) filter (where r.status = 'approved')::int as approved,
                    count(*) filter (where r.status = 'rejected')::int as rejected,
                    count(*) filter (where r.status = 'review_required')::int as review_required
               from (select generate_series(($3::timestamptz at time zone 'UTC')::date,
                                            ($4::timestamptz at time zone 'UTC')::date, interval '1 day')::date
                            as day) d
               left join recent r on (r.created_at at time zone 'UTC')::date = d.day
              group by d.day) as days) as per_day,
    (select percentile_cont(0.5) within group (order by round(extract(epoch from decided_at - submitted_at)))
       from recent
      where status in ('approved', 'rejected') and submitted_at is not null and decided_at is not null)
      as median_seconds,
    (select count(*)::int from sessions where tenant_id = $1 and environment = $2 and status = 'review_required')
      as queue_length,
    (select min(decided_at) from sessions where tenant_id = $1 and environment = $2 and status = 'review_required')
      as queue_oldest_since`;

interface LiveRow {
  by_status: Record<string, number>;
  per_day: SessionStats['perDay'];
  median_seconds: number | string | null;
  queue_length: number;
  queue_oldest_since: Date | null;
}

/** A small deterministic generator (mulberry32), so a failure replays the same data. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function seedTenants(sql: SqlClient, now: Date): Promise<void> {
  for (const id of TENANTS) {
    await sql.query('insert into tenants (id, name, created_at, updated_at) values ($1, $1, $2, $2)', [
      id,
      now,
    ]);
  }
}

/** Sessions in bulk, in one statement (the statement-level trigger sees them all at once). */
async function bulkInsert(sql: SqlClient, prefix: string, count: number, now: Date): Promise<void> {
  await sql.query(
    `insert into sessions (id, tenant_id, environment, status, country, flow, tier, required_steps, steps,
       expires_at, created_at, updated_at, submitted_at, decided_at)
     select $1 || g, (array['ten_rollup_a', 'ten_rollup_b'])[1 + g % 2],
            case when g % 3 = 0 then 'sandbox' else 'production' end,
            (array['created','collecting','processing','approved','rejected','review_required','expired',
                   'cancelled'])[1 + (g / 2) % 8],
            'DEU', 'user', 'tier1', '[]', '[]', c.created + interval '1 day', c.created, c.created,
            case when (g / 2) % 8 in (2, 3, 4, 5) then c.created + interval '1 minute' end,
            case when (g / 2) % 8 in (3, 4, 5) then c.created + interval '1 minute'
                                                  + (g % 97) * interval '1.37 second' end
       from generate_series(1, $2::int) as g,
            lateral (select $3::timestamptz - (g % 100) * interval '1 day' - (g * 7919 % 86400) * interval '1 second'
                     as created) as c`,
    [prefix, count, now],
  );
}

/** One session through the store's own insert (status `created`), created at `createdAt`. */
async function insertOne(sql: SqlClient, id: string, scope: Scope, createdAt: Date): Promise<void> {
  await insertSession(sql, {
    id,
    tenant_id: scope.tenantId,
    environment: scope.environment,
    country: 'FRA',
    flow: 'user',
    tier: 'tier1',
    external_user_ref_enc: null,
    external_user_ref_index: null,
    redirect_url: null,
    metadata_enc: null,
    required_steps: ['consent'],
    steps: [],
    verify_token_hash: `hash_${id}`,
    verify_token_nonce: null,
    sandbox: null,
    expires_at: new Date(createdAt.getTime() + DAY_MS),
    created_at: createdAt,
  });
}

/**
 * Walks sessions through the lifecycle with the store's compare-and-set update, as the API and workers
 * do: collecting, processing (submitted), then a decision, a review hand-over and its outcome, an expiry
 * or a cancellation; some decisions are corrected later (decided_at moved), which changes the duration.
 */
async function walkLifecycles(sql: SqlClient, ids: string[], now: Date, next: () => number): Promise<void> {
  const move = async (id: string, from: SessionStatus, to: SessionStatus, extra = {}) => {
    const row = await updateSession(sql, id, from, { status: to, ...extra }, now);
    assert.ok(row, `${id} was not in ${from}`);
    return row;
  };
  for (const id of ids) {
    const [created] = await sql.query<{ created_at: Date }>('select created_at from sessions where id = $1', [
      id,
    ]);
    const createdAt = (created as { created_at: Date }).created_at.getTime();
    const fate = next();
    if (fate < 0.1) continue; // stays created
    if (fate < 0.15) {
      await move(id, 'created', 'expired');
      continue;
    }
    await move(id, 'created', 'collecting');
    if (fate < 0.2) {
      await move(id, 'collecting', 'cancelled');
      continue;
    }
    const submittedAt = new Date(createdAt + 30_000 + Math.floor(next() * 600_000));
    await move(id, 'collecting', 'processing', { submitted_at: submittedAt });
    if (fate < 0.25) continue; // still processing
    // Fractional seconds on purpose: the median is over whole seconds, rounded.
    const decidedAt = new Date(submittedAt.getTime() + Math.floor(next() * 900_000) + 0.5);
    const automated = next();
    if (automated < 0.5) {
      await move(id, 'processing', 'approved', { decided_at: decidedAt, decision: 'approved' });
    } else if (automated < 0.7) {
      await move(id, 'processing', 'rejected', { decided_at: decidedAt, decision: 'rejected' });
    } else {
      await move(id, 'processing', 'review_required', { decided_at: decidedAt });
      if (automated < 0.85) continue; // waiting in the queue
      const reviewedAt = new Date(decidedAt.getTime() + Math.floor(next() * 7_200_000));
      await move(id, 'review_required', next() < 0.6 ? 'approved' : 'rejected', { decided_at: reviewedAt });
    }
    if (next() < 0.1) {
      // A correction of the decision time without a status change: only the histogram moves.
      await sql.query(`update sessions set decided_at = decided_at + interval '17 seconds' where id = $1`, [
        id,
      ]);
    }
  }
}

/** The counters as rows, and the same derived from the sessions; zero counters left out. */
async function countersAndLiveCounts(sql: SqlClient) {
  const read = (text: string) => sql.query<Record<string, unknown>>(text);
  return {
    daily: await read(
      `select tenant_id, environment, day::text, status, sessions from session_stats_daily
        where sessions <> 0 order by 1, 2, 3, 4`,
    ),
    liveDaily: await read(
      `select tenant_id, environment, session_stats_day(created_at)::text as day, status, count(*)::int as sessions
         from sessions group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    ),
    durations: await read(
      `select tenant_id, environment, day::text, seconds::int, sessions from session_decision_seconds_daily
        where sessions <> 0 order by 1, 2, 3, 4`,
    ),
    liveDurations: await read(
      `select tenant_id, environment, session_stats_day(created_at)::text as day,
              round(extract(epoch from decided_at - submitted_at))::int as seconds, count(*)::int as sessions
         from sessions
        where status in ('approved', 'rejected') and submitted_at is not null and decided_at is not null
        group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    ),
    queues: await read(
      `select tenant_id, environment, sessions from session_review_queue_lengths where sessions <> 0
        order by 1, 2`,
    ),
    liveQueues: await read(
      `select tenant_id, environment, count(*)::int as sessions from sessions where status = 'review_required'
        group by 1, 2 order by 1, 2`,
    ),
  };
}

async function assertCountersExact(sql: SqlClient): Promise<void> {
  const c = await countersAndLiveCounts(sql);
  assert.ok(c.liveDaily.length > 0, 'nothing seeded');
  assert.deepEqual(c.daily, c.liveDaily, 'per-day counts by status');
  assert.ok(c.liveDurations.length > 0, 'no decided session seeded');
  assert.deepEqual(c.durations, c.liveDurations, 'decision-time histogram');
  assert.ok(c.liveQueues.length > 0, 'no review queue seeded');
  assert.deepEqual(c.queues, c.liveQueues, 'review queue lengths');
}

/** readSessionStats (the counters) against the live aggregate, for every scope and several windows. */
async function assertStatsMatchLive(sql: SqlClient, now: Date): Promise<number> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let compared = 0;
  for (const scope of SCOPES) {
    for (const days of [1, 7, 30, 90]) {
      const window = { from: new Date(today - (days - 1) * DAY_MS), to: now };
      const stats = await readSessionStats(sql, scope, window);
      const [live] = await sql.query<LiveRow>(LIVE_STATS_SQL, sessionStatsParams(scope, window));
      const label = `${scope.tenantId}/${scope.environment}, ${days} days`;
      assert.ok(live, label);
      for (const [status, count] of Object.entries(stats.byStatus)) {
        assert.equal(count, live.by_status[status] ?? 0, `${label}: ${status}`);
      }
      assert.deepEqual(stats.perDay, live.per_day, `${label}: per day`);
      assert.equal(
        stats.medianSecondsToDecision,
        live.median_seconds === null ? null : Number(live.median_seconds),
        `${label}: median`,
      );
      assert.equal(stats.reviewQueueLength, live.queue_length, `${label}: queue length`);
      assert.equal(
        stats.reviewQueueOldestSince?.getTime(),
        live.queue_oldest_since?.getTime(),
        `${label}: queue oldest`,
      );
      compared += 1;
    }
  }
  return compared;
}

for (const engine of testEngines()) {
  describe(`dashboard statistics from the rollup counters (${engine})`, () => {
    let db: Database;
    // Late in a UTC day, so "today" has room for sessions created a few hours ago.
    const now = new Date(Date.UTC(2026, 2, 14, 21, 30, 0));

    before(async () => {
      db = await createTestDatabase(engine);
      await seedTenants(db, now);
    });
    after(() => db.close());

    it('keeps the counters equal to a live count through inserts, transitions, corrections and deletes', async (t) => {
      const next = random(13);
      await bulkInsert(db, 'sess_bulk_', 3000, now);
      const ids: string[] = [];
      for (let i = 0; i < 240; i += 1) {
        const scope = SCOPES[i % SCOPES.length] as Scope;
        const id = `sess_walk_${i}`;
        // Over 40 days, including a few created an hour ago (today).
        const age = i % 10 === 0 ? 3_600_000 : Math.floor(next() * 40 * DAY_MS);
        await insertOne(db, id, scope, new Date(now.getTime() - age));
        ids.push(id);
      }
      await assertCountersExact(db);
      await walkLifecycles(db, ids, now, next);
      // A bulk transition in one statement, as a sweeper would do it.
      await db.query(
        `update sessions set status = 'expired', updated_at = $1
          where id like 'sess_bulk_%' and status in ('created', 'collecting') and created_at < $1::timestamptz - interval '2 days'`,
        [now],
      );
      // Rows that leave: deleted one by one and in bulk.
      await db.query(`delete from sessions where id = 'sess_walk_7'`);
      await db.query(`delete from sessions where id like 'sess_bulk_1%'`);
      // A session moved to another scope (never done by the API, but every writer must be counted).
      await db.query(`update sessions set environment = 'sandbox' where id = 'sess_walk_8'`);
      // A transaction that changes statuses and then fails leaves the counters as they were.
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query(`update sessions set status = 'cancelled' where id like 'sess_walk_1%'`);
          await insertOne(tx, 'sess_rolled_back', SCOPES[0] as Scope, now);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      await assertCountersExact(db);
      const compared = await assertStatsMatchLive(db, now);
      t.diagnostic(`${compared} windows compared with the live count`);
    });

    it('reads only counters and the queue index, never scanning the sessions', async () => {
      await db.query('analyze');
      const params = sessionStatsParams(
        { tenantId: TENANTS[0] as string, environment: 'production' },
        { from: new Date(now.getTime() - 29 * DAY_MS), to: now },
      );
      const rows = await db.query<{ 'QUERY PLAN': unknown }>(
        `explain (format json) ${SESSION_STATS_SQL}`,
        params,
      );
      const raw = rows[0]?.['QUERY PLAN'];
      const plan = ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[])[0]?.Plan;
      assert.ok(plan);
      const nodes = flatten(plan);
      const onSessions = nodes.filter((node) => node['Relation Name'] === 'sessions');
      assert.deepEqual(
        onSessions.map((node) => node['Index Name']),
        ['sessions_review_queue'],
        'sessions is read only for the oldest entry of the review queue',
      );
      assert.ok(
        nodes.some((node) => node['Relation Name'] === 'session_stats_daily'),
        'the per-day counters are read',
      );
    });
  });

  describe(`migration 013 backfills the counters from existing sessions (${engine})`, () => {
    it('counts what was there before the triggers existed', async () => {
      const db = await databaseBefore13(engine);
      try {
        const now = new Date(Date.UTC(2026, 2, 14, 12, 0, 0));
        await seedTenants(db, now);
        await bulkInsert(db, 'sess_before_', 1500, now);
        const [{ exists } = { exists: true }] = await db.query<{ exists: boolean }>(
          `select to_regclass('session_stats_daily') is not null as exists`,
        );
        assert.equal(exists, false, 'the counters existed before migration 013');
        // 13 and every later migration: the counters are then read as the current code reads them.
        assert.deepEqual(
          await migrate(db),
          MIGRATIONS.filter((migration) => migration.version >= 13).map((migration) => migration.version),
        );
        await assertCountersExact(db);
        await assertStatsMatchLive(db, now);
      } finally {
        await db.close();
      }
    });
  });
}

/**
 * A fresh database migrated up to 012 only (the shared harness always applies every migration); on
 * PostgreSQL a new database that close() drops again.
 */
async function databaseBefore13(engine: Engine): Promise<Database> {
  const before13 = MIGRATIONS.filter((migration) => migration.version < 13);
  if (engine === 'pglite') {
    const db = pgliteDatabase(await PGlite.create());
    await migrate(db, before13);
    return db;
  }
  const adminUrl = process.env['TEST_DATABASE_URL'] as string;
  const name = `idv_rollup_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = postgresDatabase(url.toString(), { max: 2 });
  await migrate(db, before13);
  return {
    ...db,
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}
