import type { Migration } from './migration.ts';

export const evidenceMigration: Migration = {
  version: 2,
  name: 'evidence: uploads, confirmed details, consents, liveness challenges, handoff tokens',
  sql: `
    -- One row per stored image (documents and liveness frames). The bytes are in the blob store,
    -- encrypted; here only what the engine needs without decrypting them. sha256_index is a keyed digest
    -- of the bytes (the same image uploaded twice), never the plain hash of a person's photo.
    -- seq orders uploads as they were made: timestamps can tie within a millisecond.
    create table verify_uploads (
      id text primary key,
      seq bigint generated always as identity,
      tenant_id text not null,
      environment text not null,
      session_id text not null references sessions (id) on delete cascade,
      kind text not null,
      step text not null,
      document_type text,
      side text,
      issuing_country_enc text,
      liveness_challenge_id text,
      frame_index integer,
      content_type text not null,
      byte_size integer not null,
      width integer not null,
      height integer not null,
      quality jsonb not null,
      sha256_index text not null,
      blob_key text not null,
      created_at timestamptz not null
    );
    create index verify_uploads_by_session on verify_uploads (session_id, seq);
    create index verify_uploads_by_digest on verify_uploads (tenant_id, environment, sha256_index);

    -- What the end-user confirmed per step (id_document or business_details), encrypted as JSON;
    -- mrz_enc is the parsed machine-readable zone. document_number_index finds the same document
    -- under another user.
    create table verify_details (
      session_id text not null references sessions (id) on delete cascade,
      step text not null,
      tenant_id text not null,
      environment text not null,
      details_enc text not null,
      mrz_enc text,
      document_number_index text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (session_id, step)
    );
    create index verify_details_by_document_number
      on verify_details (tenant_id, environment, document_number_index);

    -- The consent record: when, from where (IP and user agent encrypted) and which text version.
    create table verify_consents (
      session_id text primary key references sessions (id) on delete cascade,
      tenant_id text not null,
      environment text not null,
      accepted boolean not null,
      consent_version text not null,
      locale text,
      ip_enc text,
      user_agent_enc text,
      recorded_at timestamptz not null
    );

    -- A liveness challenge: its id is the nonce the frames must answer, once, before expires_at.
    create table liveness_challenges (
      id text primary key,
      seq bigint generated always as identity,
      tenant_id text not null,
      environment text not null,
      session_id text not null references sessions (id) on delete cascade,
      actions jsonb not null,
      expires_at timestamptz not null,
      created_at timestamptz not null,
      answered_at timestamptz,
      outcome text,
      retry_reason text
    );
    create index liveness_challenges_by_session on liveness_challenges (session_id, seq);

    -- Short-lived second links for continuing on a phone; stored as hashes only. parent_token_hash ties
    -- a handoff to the verify token that issued it, so refreshing the verify_url revokes its handoffs.
    create table verify_handoffs (
      token_hash text primary key,
      tenant_id text not null,
      environment text not null,
      session_id text not null references sessions (id) on delete cascade,
      parent_token_hash text not null,
      expires_at timestamptz not null,
      created_at timestamptz not null
    );
    create index verify_handoffs_by_session on verify_handoffs (session_id);
  `,
};
