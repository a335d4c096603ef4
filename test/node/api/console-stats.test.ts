import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Environment } from '../../../server/domain/api-key-format.ts';
import { SESSION_STATS_SQL, sessionStatsParams } from '../../../server/store/stats.ts';
import { bootstrapTenant } from '../../../server/features/tenants/bootstrap-tenant.ts';
import { createHarness, type TestHarness, type TestTenant } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type Body, expectOk, expectProblem, inviteAndLogIn } from './console-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const SECOND = 1000;

interface SeededSession {
  environment?: Environment;
  status: string;
  createdAt: Date;
  submittedAt?: Date;
  decidedAt?: Date;
}

let seeded = 0;

/** Writes sessions straight into the table, with the times a test needs (the API would stamp "now"). */
async function seedSessions(h: TestHarness, tenantId: string, sessions: SeededSession[]): Promise<void> {
  for (const session of sessions) {
    seeded += 1;
    await h.deps.db.query(
      `insert into sessions (id, tenant_id, environment, status, country, flow, tier, required_steps, steps,
         expires_at, created_at, updated_at, submitted_at, decided_at)
       values ($1, $2, $3, $4, 'DEU', 'user', 'tier1', '[]', '[]', $5, $6, $6, $7, $8)`,
      [
        `sess_seeded${seeded}_${Math.random().toString(36).slice(2, 10)}`,
        tenantId,
        session.environment ?? 'production',
        session.status,
        new Date(session.createdAt.getTime() + DAY_MS),
        session.createdAt,
        session.submittedAt ?? null,
        session.decidedAt ?? null,
      ],
    );
  }
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Every plan node of an EXPLAIN (FORMAT JSON) result, flattened. */
function planNodes(plan: Body): Body[] {
  return [plan, ...((plan['Plans'] as Body[] | undefined) ?? []).flatMap(planNodes)];
}

for (const engine of testEngines()) {
  describe(`console statistics (${engine})`, () => {
    let h: TestHarness;
    let tenant: TestTenant;
    let token: string;
    let oldestInQueue: Date;

    before(async () => {
      h = await createHarness(engine);
      // A tenant of its own, so the sessions counted are exactly the ones seeded here.
      const created = await bootstrapTenant(h.deps, {
        tenantName: 'Stats tenant',
        adminEmail: `stats-${Date.now()}@tenant.idv.test`,
        apiKeys: ['sandbox', 'production'],
      });
      tenant = {
        tenantId: created.tenantId,
        email: created.email,
        password: created.password,
        sandboxKey: created.apiKeys.sandbox as string,
        productionKey: created.apiKeys.production as string,
      };
      token = await h.login(tenant);
      const now = h.clock.now();
      const today = startOfUtcDay(now);
      const daysAgo = (days: number, plusMs = 0) => new Date(today.getTime() - days * DAY_MS + plusMs);
      const decided = (createdAt: Date, seconds: number) => ({
        createdAt,
        submittedAt: new Date(createdAt.getTime() + 60 * SECOND),
        decidedAt: new Date(createdAt.getTime() + 60 * SECOND + seconds * SECOND),
      });
      oldestInQueue = daysAgo(60, 3_600_000);
      await seedSessions(h, tenant.tenantId, [
        // Today: two approvals (100 s and 300 s to decide), one rejection (200 s), one not started.
        { status: 'approved', ...decided(today, 100) },
        { status: 'approved', ...decided(today, 300) },
        { status: 'rejected', ...decided(today, 200) },
        { status: 'created', createdAt: today },
        // Three days ago: one waiting for review, one expired.
        { status: 'review_required', createdAt: daysAgo(3), decidedAt: daysAgo(3, 3_600_000) },
        { status: 'expired', createdAt: daysAgo(3) },
        // The first day of the window, and the day before it (outside).
        { status: 'approved', ...decided(daysAgo(29), 1000) },
        { status: 'approved', ...decided(daysAgo(30), 5) },
        // Waiting for review since long before the window: in the queue, not in the window's counts.
        { status: 'review_required', createdAt: daysAgo(61), decidedAt: oldestInQueue },
        // Another environment: never counted in production.
        { status: 'approved', environment: 'sandbox', ...decided(today, 9999) },
      ]);
      // Another tenant's sessions: never counted.
      await seedSessions(h, h.tenant.tenantId, [
        { status: 'approved', ...decided(today, 7) },
        { status: 'review_required', createdAt: daysAgo(90), decidedAt: daysAgo(90) },
      ]);
    });
    after(() => h.close());

    it('reports counts by status, approval rate, median time to decision, per-day counts and the queue', async () => {
      const stats = await expectOk(await h.call('GET', '/v1/stats', { token }));
      assert.equal(stats['object'], 'stats');
      assert.equal(stats['environment'], 'production');
      assert.equal(stats['days'], 30);
      assert.deepEqual(stats['sessions']['by_status'], {
        created: 1,
        collecting: 0,
        processing: 0,
        approved: 3,
        rejected: 1,
        review_required: 1,
        expired: 1,
        cancelled: 0,
      });
      assert.equal(stats['sessions']['total'], 7);
      assert.equal(stats['approval_rate'], 0.75);
      assert.equal(stats['median_seconds_to_decision'], 250, 'median of 100, 200, 300 and 1000 s');

      const now = h.clock.now();
      const today = startOfUtcDay(now);
      const perDay = stats['per_day'] as Body[];
      assert.equal(perDay.length, 30);
      assert.equal(perDay[0]?.['date'], isoDay(new Date(today.getTime() - 29 * DAY_MS)));
      assert.equal(perDay[29]?.['date'], isoDay(today));
      assert.equal(stats['from'], new Date(today.getTime() - 29 * DAY_MS).toISOString());
      assert.deepEqual(perDay[29], {
        date: isoDay(today),
        created: 4,
        approved: 2,
        rejected: 1,
        review_required: 0,
      });
      assert.deepEqual(perDay[26], {
        date: isoDay(new Date(today.getTime() - 3 * DAY_MS)),
        created: 2,
        approved: 0,
        rejected: 0,
        review_required: 1,
      });
      assert.deepEqual(perDay[0], { ...perDay[0], created: 1, approved: 1 });
      assert.equal(
        perDay.reduce((sum, day) => sum + day['created'], 0),
        7,
      );

      assert.equal(stats['review_queue']['length'], 2);
      assert.equal(stats['review_queue']['oldest_since'], oldestInQueue.toISOString());
      assert.equal(
        stats['review_queue']['oldest_age_seconds'],
        Math.floor((now.getTime() - oldestInQueue.getTime()) / 1000),
      );
    });

    it('narrows the window with days, and answers the same to the production key', async () => {
      const week = await expectOk(await h.call('GET', '/v1/stats?days=7', { token }));
      assert.equal(week['per_day'].length, 7);
      assert.equal(week['sessions']['total'], 6);
      assert.equal(week['median_seconds_to_decision'], 200);
      const byKey = await expectOk(await h.call('GET', '/v1/stats', { key: tenant.productionKey }));
      assert.equal(byKey['sessions']['total'], 7);
    });

    it('reports on the environment asked for, which must agree with the credential', async () => {
      const sandbox = await expectOk(await h.call('GET', '/v1/stats?environment=sandbox', { token }));
      assert.equal(sandbox['environment'], 'sandbox');
      assert.equal(sandbox['sessions']['total'], 1);
      assert.equal(sandbox['review_queue']['length'], 0);
      assert.equal(sandbox['review_queue']['oldest_since'], null);
      const viaHeader = await expectOk(
        await h.call('GET', '/v1/stats', { token, headers: { 'x-environment': 'sandbox' } }),
      );
      assert.equal(viaHeader['sessions']['total'], 1);
      await expectProblem(
        await h.call('GET', '/v1/stats?environment=sandbox', {
          token,
          headers: { 'x-environment': 'production' },
        }),
        400,
        'invalid_parameter',
      );
      await expectProblem(
        await h.call('GET', '/v1/stats?environment=sandbox', { key: tenant.productionKey }),
        400,
        'invalid_parameter',
      );
      const keySandbox = await expectOk(
        await h.call('GET', '/v1/stats?environment=sandbox', { key: tenant.sandboxKey }),
      );
      assert.equal(keySandbox['median_seconds_to_decision'], 9999);
    });

    it('validates its query and answers nulls when nothing is decided', async () => {
      for (const query of ['days=0', 'days=91', 'days=abc', 'environment=staging']) {
        await expectProblem(await h.call('GET', `/v1/stats?${query}`, { token }), 400, 'invalid_parameter');
      }
      await expectProblem(await h.call('GET', '/v1/stats?tenant_id=x', { token }), 400, 'unknown_parameter');
      const empty = await expectOk(
        await h.call('GET', '/v1/stats', { key: h.other.sandboxKey }), // Tenant B's sandbox has no session
      );
      assert.equal(empty['sessions']['total'], 0);
      assert.equal(empty['approval_rate'], null);
      assert.equal(empty['median_seconds_to_decision'], null);
      assert.equal(empty['per_day'].length, 30);
      assert.ok(empty['per_day'].every((day: Body) => day['created'] === 0));
    });

    it('is readable with sessions:read (a viewer) and needs a credential', async () => {
      const viewer = await inviteAndLogIn(h, 'viewer', token, tenant);
      await expectOk(await h.call('GET', '/v1/stats', { token: viewer.token }));
      await expectProblem(await h.call('GET', '/v1/stats'), 401, 'authentication_required');
    });

    it('reads everything in one statement from the counters, never scanning the sessions', async (t) => {
      // A few thousand sessions for this tenant over a year, ten times as many for others; then fresh
      // statistics, as autovacuum would leave them.
      const now = h.clock.now();
      await h.deps.db.query(
        `insert into tenants (id, name, created_at, updated_at) values ('ten_statsbulk', 'bulk', $1, $1)`,
        [now],
      );
      const bulk = (tenantId: string, count: number) =>
        h.deps.db.query(
          `insert into sessions (id, tenant_id, environment, status, country, flow, tier, required_steps, steps,
             expires_at, created_at, updated_at, submitted_at, decided_at)
           select 'sess_bulk_' || $1 || '_' || g, $1, case when g % 4 = 0 then 'sandbox' else 'production' end,
                  (array['created','collecting','processing','approved','rejected','review_required','expired',
                         'cancelled'])[1 + g % 8],
                  'DEU', 'user', 'tier1', '[]', '[]', created + interval '1 day', created, created,
                  case when g % 8 in (3, 4, 5) then created + interval '10 minutes' end,
                  case when g % 8 in (3, 4, 5) then created + interval '10 minutes' + (g % 600) * interval '1 second' end
             from generate_series(1, $2::int) as g,
                  lateral (select $3::timestamptz - (g % 365) * interval '1 day' - (g % 86400) * interval '1 second'
                           as created) as c`,
          [tenantId, count, now],
        );
      await bulk(tenant.tenantId, 4000);
      await bulk('ten_statsbulk', 20000);
      await h.deps.db.query('vacuum analyze sessions');

      const today = startOfUtcDay(now);
      const params = sessionStatsParams(
        { tenantId: tenant.tenantId, environment: 'production' },
        { from: new Date(today.getTime() - 29 * DAY_MS), to: now },
      );
      const rows = await h.deps.db.query<{ 'QUERY PLAN': unknown }>(
        `explain (format json) ${SESSION_STATS_SQL}`,
        params,
      );
      const raw = rows[0]?.['QUERY PLAN'];
      const document = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Body[];
      const nodes = planNodes(document[0]?.['Plan'] as Body);
      const onSessions = nodes.filter((node) => node['Relation Name'] === 'sessions');
      const described = onSessions
        .map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''}`)
        .join('; ');
      // The window's counts come from the per-day counters (migration 013), never from the sessions:
      // sessions is read once, for the oldest entry of the review queue, through its partial index.
      assert.equal(onSessions.length, 1, `expected one read of sessions, got: ${described}`);
      assert.equal(
        onSessions[0]?.['Index Name'],
        'sessions_review_queue',
        `the queue is not read through its index: ${described}`,
      );
      t.diagnostic(`plan on sessions: ${described}`);
      assert.ok(
        nodes.some((node) => node['Relation Name'] === 'session_stats_daily'),
        'the per-day counters are not read',
      );

      // And the endpoint still answers from the same statement with the bulk in place.
      const stats = await expectOk(await h.call('GET', '/v1/stats', { token }));
      assert.ok(stats['sessions']['total'] > 7);
      assert.equal(stats['per_day'].length, 30);
    });
  });
}
