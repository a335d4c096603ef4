import { SESSION_STATUSES, type SessionStatus } from '../domain/session-status.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/** One UTC day of the chart: sessions created that day, and what became of them so far. */
export interface DayCounts {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  created: number;
  approved: number;
  rejected: number;
  review_required: number;
}

export interface SessionStats {
  /** Sessions created in the window, by their current status (every status present, zeros included). */
  byStatus: Record<SessionStatus, number>;
  /** Median seconds from submission to the final decision, over approved and rejected sessions; null if none. */
  medianSecondsToDecision: number | null;
  /** One entry per day of the window, oldest first, days without sessions included. */
  perDay: DayCounts[];
  /** Sessions waiting for a reviewer now, whenever they were created. */
  reviewQueueLength: number;
  /** When the longest-waiting of them was handed to review; null for an empty queue. */
  reviewQueueOldestSince: Date | null;
}

export interface StatsWindow {
  /** Start of the first day (00:00 UTC). */
  from: Date;
  /**
   * The moment of the read; the last day is the one this falls on, counted whole: the counters are per
   * day, so a session stamped later that same day (only a write racing the read can be) is included.
   */
  to: Date;
}

/**
 * Everything the console dashboard shows, in ONE statement that reads counters, never the sessions
 * themselves: so its cost is the window's days, not its sessions (flat from 10 k to 1 M sessions; see
 * docs/benchmarks.md "Scale"). The counters (migration 013) are kept by triggers on `sessions` in the
 * same transaction as every insert, status change and delete, so they are exact:
 * - `session_stats_daily`: sessions per creation day (UTC) and current status, for the totals by status
 *   and the per-day chart;
 * - `session_decision_seconds_daily`: decided sessions per creation day and whole seconds from submission
 *   to decision; the median is read from that histogram (cumulative counts up to the middle rank), exactly
 *   what `percentile_cont(0.5)` gives over those whole-second durations;
 * - `session_review_queue_lengths`: the queue's length per scope, whatever the sessions' age.
 * Only the oldest waiting session comes from `sessions`, as the first entry of the partial index
 * `sessions_review_queue` (migration 008).
 */
export const SESSION_STATS_SQL = `
  with bounds as (
    select ($3::timestamptz at time zone 'UTC')::date as first_day,
           ($4::timestamptz at time zone 'UTC')::date as last_day
  ),
  counts as (
    select c.day, c.status, c.sessions
      from session_stats_daily c, bounds b
     where c.tenant_id = $1 and c.environment = $2 and c.day between b.first_day and b.last_day
       and c.sessions <> 0
  ),
  by_status as (
    select status, sum(sessions)::int as sessions from counts group by status
  ),
  per_day as (
    select day,
           sum(sessions)::int as created,
           coalesce(sum(sessions) filter (where status = 'approved'), 0)::int as approved,
           coalesce(sum(sessions) filter (where status = 'rejected'), 0)::int as rejected,
           coalesce(sum(sessions) filter (where status = 'review_required'), 0)::int as review_required
      from counts
     group by day
  ),
  durations as (
    select h.seconds, sum(h.sessions) as sessions
      from session_decision_seconds_daily h, bounds b
     where h.tenant_id = $1 and h.environment = $2 and h.day between b.first_day and b.last_day
     group by h.seconds
    having sum(h.sessions) > 0
  ),
  ranked as (
    select seconds, sum(sessions) over (order by seconds) as up_to, sum(sessions) over () as total
      from durations
  ),
  decided as (
    -- percentile_cont(0.5) over n sorted values: the mean of the values at 0-based ranks floor((n-1)/2)
    -- and ceil((n-1)/2); the value at rank k is the first duration whose cumulative count exceeds k.
    select ((select min(seconds) from ranked where up_to > floor((total - 1) / 2.0))
          + (select min(seconds) from ranked where up_to > ceil((total - 1) / 2.0))) / 2.0 as median_seconds
      from (select max(total) as total from ranked) as n
  )
  select
    (select coalesce(jsonb_object_agg(status, sessions), '{}'::jsonb) from by_status) as by_status,
    (select jsonb_agg(jsonb_build_object(
              'date', to_char(days.day, 'YYYY-MM-DD'),
              'created', coalesce(per_day.created, 0),
              'approved', coalesce(per_day.approved, 0),
              'rejected', coalesce(per_day.rejected, 0),
              'review_required', coalesce(per_day.review_required, 0)) order by days.day)
       from bounds, generate_series(bounds.first_day, bounds.last_day, interval '1 day') as days_ts,
            lateral (select days_ts::date as day) as days
       left join per_day on per_day.day = days.day) as per_day,
    decided.median_seconds,
    coalesce((select sessions from session_review_queue_lengths where tenant_id = $1 and environment = $2), 0)
      as queue_length,
    (select decided_at from sessions
      where tenant_id = $1 and environment = $2 and status = 'review_required'
      order by decided_at limit 1) as queue_oldest_since
  from decided`;

/** The parameters of {@link SESSION_STATS_SQL}, exported so a test can EXPLAIN the very same statement. */
export function sessionStatsParams(scope: Scope, window: StatsWindow): unknown[] {
  return [scope.tenantId, scope.environment, window.from, window.to];
}

/**
 * Reads the dashboard's session statistics of one tenant and environment.
 *
 * @example
 * const stats = await readSessionStats(db, scope, { from: startOfDayUtc, to: now });
 */
export async function readSessionStats(
  sql: SqlClient,
  scope: Scope,
  window: StatsWindow,
): Promise<SessionStats> {
  const rows = await sql.query<{
    by_status: Partial<Record<SessionStatus, number>>;
    per_day: DayCounts[] | null;
    median_seconds: number | string | null;
    queue_length: number;
    queue_oldest_since: Date | null;
  }>(SESSION_STATS_SQL, sessionStatsParams(scope, window));
  const row = rows[0];
  const byStatus = Object.fromEntries(
    SESSION_STATUSES.map((status) => [status, row?.by_status[status] ?? 0]),
  ) as Record<SessionStatus, number>;
  const median = row?.median_seconds;
  return {
    byStatus,
    medianSecondsToDecision: median === null || median === undefined ? null : Number(median),
    perDay: row?.per_day ?? [],
    reviewQueueLength: row?.queue_length ?? 0,
    reviewQueueOldestSince: row?.queue_oldest_since ?? null,
  };
}
