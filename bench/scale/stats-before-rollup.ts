/**
 * The dashboard statistics statement as it was before migration 013 (server/store/stats.ts at that time):
 * one aggregate over the window's sessions, read through the covering index sessions_stats_by_scope.
 * The scale bench runs it beside the counter-based statement, on the same data, to show what the
 * counters changed; the index it reads still exists, so its plan is the one it had.
 */
export const LIVE_STATS_SQL_BEFORE_013 = `
  with recent as (
    select status, created_at, submitted_at, decided_at
      from sessions
     where tenant_id = $1 and environment = $2 and created_at >= $3 and created_at <= $4
  ),
  by_status as (
    select status, count(*)::int as sessions from recent group by status
  ),
  per_day as (
    select (created_at at time zone 'UTC')::date as day,
           count(*)::int as created,
           count(*) filter (where status = 'approved')::int as approved,
           count(*) filter (where status = 'rejected')::int as rejected,
           count(*) filter (where status = 'review_required')::int as review_required
      from recent
     group by 1
  ),
  decided as (
    select percentile_cont(0.5) within group (order by extract(epoch from decided_at - submitted_at))
             as median_seconds
      from recent
     where status in ('approved', 'rejected') and submitted_at is not null and decided_at is not null
  ),
  queue as (
    select count(*)::int as queue_length, min(decided_at) as queue_oldest_since
      from sessions
     where tenant_id = $1 and environment = $2 and status = 'review_required'
  )
  select
    (select coalesce(jsonb_object_agg(status, sessions), '{}'::jsonb) from by_status) as by_status,
    (select jsonb_agg(jsonb_build_object(
              'date', to_char(days.day, 'YYYY-MM-DD'),
              'created', coalesce(per_day.created, 0),
              'approved', coalesce(per_day.approved, 0),
              'rejected', coalesce(per_day.rejected, 0),
              'review_required', coalesce(per_day.review_required, 0)) order by days.day)
       from (select generate_series(($3::timestamptz at time zone 'UTC')::date, ($4::timestamptz at time zone 'UTC')::date,
                                    interval '1 day')::date as day) as days
       left join per_day on per_day.day = days.day) as per_day,
    decided.median_seconds,
    queue.queue_length,
    queue.queue_oldest_since
  from decided, queue`;
