import type { Migration } from './migration.ts';

/**
 * Indexes found missing by the scale bench (bench/scale, docs/benchmarks.md "Scale"): at 100 k and 1 M
 * sessions each of these queries read a whole table (a Seq Scan) or a whole tenant's index, so its time grew
 * with the data. Each index names the query it serves.
 */
export const scaleIndexesMigration: Migration = {
  version: 12,
  name: 'scale: indexes for filtered session lists, retention and webhook purges',
  sql: `
    -- listSessions with a status filter (GET /v1/sessions?status=…), the review queue
    -- (status=review_required&order=asc) included: the matching rows in list order, without walking the
    -- tenant's whole sessions_by_scope index past every non-matching row (a rare status on a large tenant
    -- read them all).
    create index sessions_by_scope_status on sessions (tenant_id, environment, status, created_at, id);

    -- listSessions with a country filter (GET /v1/sessions?country=…): a country with few or no sessions
    -- otherwise read the tenant's whole index.
    create index sessions_by_scope_country on sessions (tenant_id, environment, country, created_at, id);

    -- purgeEventsBefore (retention sweeper): "not exists a delivery naming this event" probes deliveries
    -- by event; the only index that had event_id led with webhook_id, so every round hashed the whole table.
    create index webhook_deliveries_by_event on webhook_deliveries (event_id);

    -- purgeDeliveriesBefore (webhook worker, hourly): finished deliveries older than 30 days, by age.
    create index webhook_deliveries_finished_by_age on webhook_deliveries (created_at) where status <> 'pending';

    -- findSessionsPastEvidenceRetention (retention sweeper): "not exists an identity whose biometric
    -- reference is this session" probes identities by session instead of hashing the whole table.
    create index identities_by_biometric_session on identities (biometric_session_id)
      where biometric_session_id is not null;

    -- findSessionsPastEvidenceRetention again: its two cutoffs (90 days after a decision, 30 after an
    -- abandonment) were read through ONE index holding every terminal session still with evidence, so
    -- each round walked all decided sessions between 30 and 90 days old to reach the abandoned ones past
    -- 30 days. One index per cutoff lets each arm of the query's OR read only the sessions past its own
    -- cutoff (a BitmapOr), which in steady state is the small backlog, whatever the table's size.
    create index sessions_decided_awaiting_evidence_retention on sessions ((coalesce(decided_at, updated_at)))
      where evidence_deleted_at is null and status in ('approved', 'rejected');
    create index sessions_abandoned_awaiting_evidence_retention on sessions ((coalesce(decided_at, updated_at)))
      where evidence_deleted_at is null and status in ('expired', 'cancelled');
    drop index sessions_awaiting_evidence_retention;
    -- Statistics of that expression: the planner ignores a partial index's own expression statistics, so it
    -- guessed a third of the table past the cutoffs and hashed every identity for the "not exists" above
    -- (84 ms at 1 M sessions) instead of probing identities_by_biometric_session per candidate (6 ms).
    create statistics sessions_evidence_retention_age on (coalesce(decided_at, updated_at)) from sessions;
  `,
};
