import type { Migration } from './migration.ts';

export const consoleMigration: Migration = {
  version: 8,
  name: 'console: user invitations, the append-only audit log, indexes for the dashboard statistics',
  sql: `
    -- Users are invited by an admin: status invited (until the invitation is accepted) | active | disabled.
    -- The invitation token is stored only as a hash, like every other bearer secret; accepting it sets the
    -- password and clears the hash, so a token works once.
    alter table users add column invitation_token_hash text;
    alter table users add column invitation_expires_at timestamptz;
    alter table users add column invited_by text;
    create unique index users_by_invitation_token on users (invitation_token_hash)
      where invitation_token_hash is not null;
    create index users_by_tenant on users (tenant_id, created_at desc, id desc);

    -- Who did what, for the tenant's admins. Ids, action names and flags only: never an e-mail, a name, a
    -- secret or a free text. actor_id is a usr_/key_ id, or for a failed login with an address that has no
    -- account a keyed digest of it (the typed address itself is never stored). ip_prefix is the caller's
    -- address truncated to its network (/24 for IPv4, /48 for IPv6). tenant_id is null only for such a
    -- failed login, which belongs to no tenant. environment is null for tenant-wide actions (users, logins).
    create table audit_events (
      id text primary key,
      tenant_id text,
      environment text,
      action text not null,
      actor_type text not null,
      actor_id text,
      target_type text,
      target_id text,
      request_id text,
      ip_prefix text,
      details jsonb not null default '{}',
      created_at timestamptz not null
    );
    create index audit_events_by_tenant on audit_events (tenant_id, created_at desc, id desc);
    create index audit_events_by_age on audit_events (created_at);

    -- Append-only, enforced by the database and not just by the code: no row is ever changed, and a row
    -- goes only once it is more than a year old (the retention purge). now() is the database's clock.
    create function audit_events_append_only() returns trigger language plpgsql as $guard$
    begin
      if tg_op = 'UPDATE' then
        raise exception 'audit_events is append-only: rows cannot be updated';
      end if;
      if old.created_at > now() - interval '365 days' then
        raise exception 'audit_events keeps every row for at least 365 days';
      end if;
      return old;
    end
    $guard$;
    create trigger audit_events_append_only before update or delete on audit_events
      for each row execute function audit_events_append_only();

    -- The dashboard statistics (GET /v1/stats) read one environment's sessions of the last days: this index
    -- holds every column they need, so the read is an index-only range scan of that tenant's recent rows.
    create index sessions_stats_by_scope on sessions (tenant_id, environment, created_at)
      include (status, submitted_at, decided_at);
    -- The review queue: only sessions waiting for a person, oldest first (decided_at is when the automated
    -- review handed them over).
    create index sessions_review_queue on sessions (tenant_id, environment, decided_at)
      where status = 'review_required';
  `,
};
