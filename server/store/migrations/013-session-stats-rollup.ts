import type { Migration } from './migration.ts';

/**
 * The dashboard statistics (GET /v1/stats) from per-day counters instead of the sessions themselves
 * (issue #13, docs/benchmarks.md "Scale"): aggregating a window's sessions took 350–410 ms at 1 M. The
 * counters are kept by triggers on `sessions`, in the same transaction as the write that changes them, so
 * every writer (API, workers, CLI, bulk SQL) keeps them exact without knowing about them, and a rollback
 * takes its counts back with it. The migration backfills them from the existing rows; it runs in one
 * transaction and creates the triggers first (which locks out writers until it commits), so no write falls
 * between the backfill and the triggers.
 */
export const sessionStatsRollupMigration: Migration = {
  version: 13,
  name: 'console: per-day session counters for the dashboard statistics, kept by triggers',
  sql: `
    -- Sessions of one scope created on one UTC day, by their CURRENT status: a transition moves one count
    -- from the old status to the new one on the day the session was created (what the per-day chart shows).
    create table session_stats_daily (
      tenant_id text not null,
      environment text not null,
      day date not null,
      status text not null,
      sessions integer not null,
      primary key (tenant_id, environment, day, status)
    );

    -- Decided (approved or rejected) sessions of one scope and creation day, by their time from submission
    -- to decision in whole seconds: a histogram, from which the exact median of those whole-second times is
    -- read without touching the sessions. Whole seconds keep it small (one row per distinct duration).
    create table session_decision_seconds_daily (
      tenant_id text not null,
      environment text not null,
      day date not null,
      seconds bigint not null,
      sessions integer not null,
      primary key (tenant_id, environment, day, seconds)
    );

    -- The review queue's length per scope, whatever the sessions' age (the per-day rows would have to be
    -- summed over the scope's whole history).
    create table session_review_queue_lengths (
      tenant_id text not null,
      environment text not null,
      sessions integer not null,
      primary key (tenant_id, environment)
    );

    -- What a session counts towards, as pure functions so the triggers, the backfill and the tests agree.
    create function session_stats_day(created_at timestamptz) returns date
      language sql immutable parallel safe
      return (created_at at time zone 'UTC')::date;
    create function session_decision_seconds(status text, submitted_at timestamptz, decided_at timestamptz)
      returns bigint language sql immutable parallel safe
      return case when status in ('approved', 'rejected') and submitted_at is not null and decided_at is not null
                  then round(extract(epoch from decided_at - submitted_at))::bigint end;

    -- One signed count for one session's key: what the triggers hand to session_stats_apply.
    create type session_stats_change as (
      tenant_id text, environment text, day date, status text, seconds bigint, delta integer
    );

    -- Adds signed counts to the three tables. Keys are grouped (two changes of one key in one statement
    -- would otherwise collide in ON CONFLICT) and written in key order, so concurrent transactions take
    -- the counter rows' locks in the same order. Rows that reach zero stay: they are reused the next time.
    -- The flags let a single-row transition skip the statements that would find nothing to write.
    create function session_stats_apply(changes session_stats_change[], by_status boolean = true,
                                        durations boolean = true, queue boolean = true)
      returns void language plpgsql as $apply$
    begin
      if by_status then
        insert into session_stats_daily as t (tenant_id, environment, day, status, sessions)
        select c.tenant_id, c.environment, c.day, c.status, sum(c.delta)
          from unnest(changes) as c
         group by 1, 2, 3, 4 having sum(c.delta) <> 0 order by 1, 2, 3, 4
        on conflict (tenant_id, environment, day, status) do update set sessions = t.sessions + excluded.sessions;
      end if;

      if durations then
        insert into session_decision_seconds_daily as t (tenant_id, environment, day, seconds, sessions)
        select c.tenant_id, c.environment, c.day, c.seconds, sum(c.delta)
          from unnest(changes) as c
         where c.seconds is not null
         group by 1, 2, 3, 4 having sum(c.delta) <> 0 order by 1, 2, 3, 4
        on conflict (tenant_id, environment, day, seconds) do update set sessions = t.sessions + excluded.sessions;
      end if;

      if queue then
        insert into session_review_queue_lengths as t (tenant_id, environment, sessions)
        select c.tenant_id, c.environment, sum(c.delta)
          from unnest(changes) as c
         where c.status = 'review_required'
         group by 1, 2 having sum(c.delta) <> 0 order by 1, 2
        on conflict (tenant_id, environment) do update set sessions = t.sessions + excluded.sessions;
      end if;
    end
    $apply$;

    -- Inserts and deletes: once per statement over its transition table, so a bulk insert (an import, the
    -- scale bench's seed) costs one grouped write per key rather than one per row.
    create function session_stats_after_insert() returns trigger language plpgsql as $ins$
    begin
      perform session_stats_apply(array(
        select row(tenant_id, environment, session_stats_day(created_at), status,
                   session_decision_seconds(status, submitted_at, decided_at), 1)::session_stats_change
          from inserted));
      return null;
    end
    $ins$;
    create trigger session_stats_after_insert after insert on sessions
      referencing new table as inserted for each statement execute function session_stats_after_insert();

    create function session_stats_after_delete() returns trigger language plpgsql as $del$
    begin
      perform session_stats_apply(array(
        select row(tenant_id, environment, session_stats_day(created_at), status,
                   session_decision_seconds(status, submitted_at, decided_at), -1)::session_stats_change
          from deleted));
      return null;
    end
    $del$;
    create trigger session_stats_after_delete after delete on sessions
      referencing old table as deleted for each statement execute function session_stats_after_delete();

    -- Updates: per row, and only when something counted changed (the WHEN is checked before any function
    -- runs, so the frequent updates of steps, tokens and timestamps cost nothing here). Transition tables
    -- cannot be combined with a column list, and a statement trigger would run on every update.
    create function session_stats_after_update() returns trigger language plpgsql as $upd$
    declare
      old_day date := session_stats_day(old.created_at);
      new_day date := session_stats_day(new.created_at);
      old_seconds bigint := session_decision_seconds(old.status, old.submitted_at, old.decided_at);
      new_seconds bigint := session_decision_seconds(new.status, new.submitted_at, new.decided_at);
      same_scope boolean := old.tenant_id = new.tenant_id and old.environment = new.environment;
    begin
      perform session_stats_apply(
        array[
          row(old.tenant_id, old.environment, old_day, old.status, old_seconds, -1)::session_stats_change,
          row(new.tenant_id, new.environment, new_day, new.status, new_seconds, 1)::session_stats_change],
        by_status => not (same_scope and old_day = new_day and old.status = new.status),
        durations => (old_seconds is not null or new_seconds is not null)
                     and not (same_scope and old_day = new_day and old_seconds is not distinct from new_seconds),
        queue => (old.status = 'review_required' or new.status = 'review_required')
                 and not (same_scope and old.status = new.status));
      return null;
    end
    $upd$;
    create trigger session_stats_after_update
      after update of tenant_id, environment, status, created_at, submitted_at, decided_at on sessions
      for each row
      when (old.status is distinct from new.status
            or old.created_at is distinct from new.created_at
            or old.submitted_at is distinct from new.submitted_at
            or old.decided_at is distinct from new.decided_at
            or old.tenant_id is distinct from new.tenant_id
            or old.environment is distinct from new.environment)
      execute function session_stats_after_update();

    -- Backfill what exists.
    insert into session_stats_daily (tenant_id, environment, day, status, sessions)
    select tenant_id, environment, session_stats_day(created_at), status, count(*)
      from sessions group by 1, 2, 3, 4;
    insert into session_decision_seconds_daily (tenant_id, environment, day, seconds, sessions)
    select tenant_id, environment, session_stats_day(created_at),
           session_decision_seconds(status, submitted_at, decided_at), count(*)
      from sessions
     where session_decision_seconds(status, submitted_at, decided_at) is not null
     group by 1, 2, 3, 4;
    insert into session_review_queue_lengths (tenant_id, environment, sessions)
    select tenant_id, environment, count(*) from sessions where status = 'review_required' group by 1, 2;
  `,
};
