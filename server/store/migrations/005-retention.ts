import type { Migration } from './migration.ts';

export const retentionMigration: Migration = {
  version: 5,
  name: 'retention: evidence-deleted marker on sessions, event age index',
  sql: `
    -- Set once a terminal session's evidence (images, details, consent record, liveness, handoffs) has been
    -- deleted at the end of its retention; the session row and its decision stay, so the result remains
    -- readable. The partial index holds only sessions whose evidence still awaits deletion.
    alter table sessions add column evidence_deleted_at timestamptz;
    create index sessions_awaiting_evidence_retention on sessions ((coalesce(decided_at, updated_at)))
      where evidence_deleted_at is null and status in ('approved', 'rejected', 'expired', 'cancelled');

    -- Events are kept 30 days (API.md §10); the purge looks them up by age alone.
    create index events_by_age on events (created_at);
  `,
};
