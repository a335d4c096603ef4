import type { Migration } from './migration.ts';

export const coreMigration: Migration = {
  version: 1,
  name: 'core: tenants, users, api keys, sessions, events, idempotency, auth records',
  sql: `
    create table tenants (
      id text primary key,
      name text not null,
      status text not null default 'active',
      allowed_origins jsonb not null default '[]',
      branding jsonb not null default '{}',
      minimum_age integer not null default 18,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    create table users (
      id text primary key,
      tenant_id text not null references tenants (id),
      email text not null,
      password_hash text not null,
      role text not null,
      status text not null default 'active',
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create unique index users_email_key on users (lower(email));

    -- Only a hash of the secret is kept; key_id is the public 8-character part embedded in it.
    create table api_keys (
      id text primary key,
      tenant_id text not null references tenants (id),
      environment text not null,
      name text not null,
      key_id text not null unique,
      secret_hash text not null,
      last4 text not null,
      created_by text,
      created_at timestamptz not null,
      revoked_at timestamptz,
      last_used_at timestamptz
    );
    create index api_keys_by_tenant on api_keys (tenant_id, created_at desc, id desc);

    -- Personal data (external reference, metadata) is stored encrypted; *_index columns are keyed
    -- digests for equality filters. The verify token is stored only as a hash.
    create table sessions (
      id text primary key,
      tenant_id text not null references tenants (id),
      environment text not null,
      status text not null,
      country text not null,
      flow text not null,
      tier text not null,
      external_user_ref_enc text,
      external_user_ref_index text,
      redirect_url text,
      metadata_enc text,
      required_steps jsonb not null,
      steps jsonb not null,
      verify_token_hash text,
      verify_token_nonce text,
      identity_id text,
      decision text,
      last_error jsonb,
      reverification_request_id text,
      sandbox jsonb,
      resubmissions integer not null default 0,
      expires_at timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      submitted_at timestamptz,
      decided_at timestamptz
    );
    create unique index sessions_by_verify_token on sessions (verify_token_hash);
    create index sessions_by_scope on sessions (tenant_id, environment, created_at desc, id desc);
    create index sessions_by_external_ref on sessions (tenant_id, environment, external_user_ref_index);
    create index sessions_due_to_expire on sessions (expires_at) where status in ('created', 'collecting');

    -- The outbox: every state change writes its event in the same transaction.
    create table events (
      id text primary key,
      tenant_id text not null,
      environment text not null,
      type text not null,
      session_id text,
      identity_id text,
      payload jsonb not null,
      created_at timestamptz not null
    );
    create index events_by_scope on events (tenant_id, environment, created_at desc, id desc);

    create table idempotency_keys (
      tenant_id text not null,
      environment text not null,
      credential_id text not null,
      key text not null,
      fingerprint text not null,
      status text not null,
      response_status integer,
      response_body text,
      created_at timestamptz not null,
      primary key (tenant_id, environment, credential_id, key)
    );
    create index idempotency_keys_by_age on idempotency_keys (created_at);

    create table revoked_tokens (
      jti text primary key,
      expires_at timestamptz not null
    );

    create table login_failures (
      email_key text not null,
      ip text not null,
      failed_at timestamptz not null
    );
    create index login_failures_by_email on login_failures (email_key, failed_at);
    create index login_failures_by_ip on login_failures (ip, failed_at);
  `,
};
