import type { Migration } from './migration.ts';

export const reviewMigration: Migration = {
  version: 4,
  name: 'review: jobs, decisions, identities, re-verification requests, watchlists',
  sql: `
    -- The durable review queue. A job is claimed with a lease (claimed_until): a worker that dies leaves
    -- the lease to lapse and another worker picks the job up. finished_at marks it done for good.
    create table review_jobs (
      id text primary key,
      tenant_id text not null,
      environment text not null,
      session_id text not null,
      run_at timestamptz not null,
      attempts integer not null default 0,
      claimed_by text,
      claimed_until timestamptz,
      last_error text,
      outcome text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz
    );
    create unique index review_jobs_one_open_per_session on review_jobs (session_id) where finished_at is null;
    create index review_jobs_due on review_jobs (run_at) where finished_at is null;

    -- Every automated or manual outcome of a session, newest last. outcome is a decision
    -- (approved|rejected|review_required) or resubmission_requested. Reasons and checks hold codes,
    -- statuses and counts only, never personal values; a reviewer's note is encrypted.
    create table session_decisions (
      id bigint generated always as identity primary key,
      tenant_id text not null,
      environment text not null,
      session_id text not null,
      outcome text not null,
      decided_by text not null,
      reviewer_id text,
      reasons jsonb not null,
      checks jsonb not null,
      note_enc text,
      created_at timestamptz not null
    );
    create index session_decisions_by_session on session_decisions (session_id, id desc);

    -- Verified people. attributes_enc holds the attributes as encrypted JSON; *_index columns are keyed
    -- digests for equality look-ups. biometric_session_id names the session whose selfie is enrolled.
    create table identities (
      id text primary key,
      tenant_id text not null references tenants (id),
      environment text not null,
      status text not null,
      flow text not null,
      tier text not null,
      external_user_ref_enc text,
      external_user_ref_index text,
      attributes_enc text not null,
      document_number_index text,
      biometric_session_id text,
      latest_session_id text not null,
      verified_at timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create unique index identities_by_external_ref on identities (tenant_id, environment, external_user_ref_index)
      where external_user_ref_index is not null;
    create index identities_by_scope on identities (tenant_id, environment, created_at desc, id desc);
    create index identities_by_document_number on identities (tenant_id, environment, document_number_index);

    -- Status while open is read from the linked session; final_status is written once it settles.
    create table reverification_requests (
      id text primary key,
      tenant_id text not null,
      environment text not null,
      identity_id text not null references identities (id),
      session_id text not null,
      reason_enc text not null,
      reason_code text not null,
      mode text not null,
      final_status text,
      created_at timestamptz not null,
      completed_at timestamptz
    );
    create unique index reverification_one_open_per_identity on reverification_requests (identity_id)
      where completed_at is null;

    -- A tenant's own screening list, replaced as a whole by PUT /v1/watchlist.
    create table watchlists (
      tenant_id text not null,
      environment text not null,
      entries jsonb not null,
      updated_at timestamptz not null,
      primary key (tenant_id, environment)
    );
  `,
};
