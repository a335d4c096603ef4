import type { Migration } from './migration.ts';

export const sharedLimitsMigration: Migration = {
  version: 10,
  name: 'rate-limit windows shared by all instances; idempotency claims held by a renewed lease',
  sql: `
    -- One row per rate-limit bucket (credential or session, and kind) and fixed window: every instance
    -- counts in the same row with one upsert, so several processes enforce one limit between them.
    -- expires_at lets any instance delete finished windows without knowing their length.
    create table rate_limit_windows (
      bucket text not null,
      window_start timestamptz not null,
      hits integer not null,
      expires_at timestamptz not null,
      primary key (bucket, window_start)
    );
    create index rate_limit_windows_by_expiry on rate_limit_windows (expires_at);

    -- Who runs an in_progress idempotency claim: owner_id names the process (random per start),
    -- claim_id the attempt, and lease_expires_at is pushed forward while it runs. A claim whose lease
    -- ran out belongs to a process that died (or stalled) and a retry may take it over. Rows written
    -- before this migration have no lease and keep the old rule (taken over 60 s after created_at).
    alter table idempotency_keys add column owner_id text;
    alter table idempotency_keys add column claim_id text;
    alter table idempotency_keys add column lease_expires_at timestamptz;
  `,
};
