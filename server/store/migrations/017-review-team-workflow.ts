import type { Migration } from './migration.ts';

/**
 * The review queue shared by a team (issue #25): a claim per session in review (who works on it, until
 * when; an admin's assignment has no end), the blind index of the names a session carries so the queue
 * can be searched by name without decrypting a row, and the tenant's waiting-time target.
 */
export const reviewTeamWorkflowMigration: Migration = {
  version: 17,
  name: 'review queue: claims, name blind index, waiting-time target',
  sql: `
    alter table tenants add column review_target_minutes integer not null default 240
      check (review_target_minutes between 5 and 10080);

    -- At most one claim per session. expires_at null: an assignment, held until released, decided or
    -- reassigned. A claim whose expires_at has passed is free to take; it is replaced, never read as held.
    create table review_claims (
      session_id text primary key references sessions (id) on delete cascade,
      tenant_id text not null,
      environment text not null,
      reviewer_id text not null references users (id) on delete cascade,
      assigned_by text references users (id) on delete set null,
      claimed_at timestamptz not null,
      expires_at timestamptz
    );
    create index review_claims_by_reviewer on review_claims (tenant_id, environment, reviewer_id);

    -- Keyed HMAC digests (the field cipher's blind index, purpose session.name_token) of each normalised
    -- word of the first and last names a session's review saw. Never the words themselves.
    create table session_name_tokens (
      session_id text not null references sessions (id) on delete cascade,
      token_index text not null,
      primary key (session_id, token_index)
    );
    create index session_name_tokens_by_index on session_name_tokens (token_index);
  `,
};
