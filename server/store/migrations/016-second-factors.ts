import type { Migration } from './migration.ts';

/**
 * Second factors for staff accounts (issue #24): TOTP authenticators with their recovery codes, passkeys
 * (WebAuthn credentials), the short-lived challenges of enrolment and of the login's second step, and the
 * tenant's setting that makes a second factor compulsory for every member (defaults to off, like
 * migration 014's setting defaults to what the product did before).
 */
export const secondFactorsMigration: Migration = {
  version: 16,
  name: 'second factors: TOTP, recovery codes, passkeys, challenges, tenant requirement',
  sql: `
    alter table tenants add column require_second_factor boolean not null default false;

    -- One TOTP authenticator per user. The secret is stored encrypted with the field cipher (context
    -- user_totp.secret:<user id>). confirmed_at stays null until the user has typed a first code, and an
    -- unconfirmed secret is never accepted at login. last_used_step is the highest 30 s step ever accepted:
    -- a code whose step is not above it is a replay and is refused.
    create table user_totp (
      user_id text primary key references users (id) on delete cascade,
      secret_enc text not null,
      confirmed_at timestamptz,
      last_used_step bigint not null default 0,
      created_at timestamptz not null
    );

    -- Single-use recovery codes, stored as keyed digests only (the codes are shown once).
    create table user_recovery_codes (
      user_id text not null references users (id) on delete cascade,
      code_digest text not null,
      used_at timestamptz,
      created_at timestamptz not null,
      primary key (user_id, code_digest)
    );

    -- Passkeys. credential_id is the authenticator's id (base64url), unique across the installation so an
    -- assertion names one row. The public key is a COSE key (base64url): public, but kept encrypted like the
    -- other authentication material so a dump reveals nothing to link accounts across services.
    create table user_passkeys (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      credential_id text not null unique,
      public_key_enc text not null,
      sign_count bigint not null default 0,
      transports text[] not null default '{}',
      name text not null,
      backed_up boolean not null default false,
      created_at timestamptz not null,
      last_used_at timestamptz
    );
    create index user_passkeys_by_user on user_passkeys (user_id, created_at);

    -- Challenges: a login's second step (purpose 'login': token_digest is the SHA-256 of the challenge
    -- token the password step handed out), a passkey registration ('passkey_registration') or a pending
    -- TOTP enrolment ('totp_enrolment', whose secret waits in secret_enc). webauthn_challenge is the
    -- random challenge the authenticator must sign. failed_attempts counts wrong codes on it; the
    -- per-user rate limit sums them over recent challenges.
    create table second_factor_challenges (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      purpose text not null check (purpose in ('login', 'passkey_registration', 'totp_enrolment')),
      token_digest text unique,
      webauthn_challenge text,
      secret_enc text,
      failed_attempts integer not null default 0,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      consumed_at timestamptz
    );
    create index second_factor_challenges_by_user on second_factor_challenges (user_id, created_at desc);
  `,
};
