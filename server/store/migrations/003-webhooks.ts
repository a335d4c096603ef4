import type { Migration } from './migration.ts';

export const webhooksMigration: Migration = {
  version: 3,
  name: 'webhooks: endpoints, deliveries, attempts; fan-out marker on events',
  sql: `
    -- Fan-out marker: the delivery worker turns each event into one delivery row per subscribed endpoint
    -- in one transaction and stamps the event, so an event committed before a crash is fanned out after
    -- the restart and never twice. Rows that predate this migration had no endpoints to go to.
    alter table events add column fanned_out_at timestamptz;
    update events set fanned_out_at = created_at;
    create index events_awaiting_fan_out on events (created_at, id) where fanned_out_at is null;

    -- Secrets are encrypted (the server must sign with them, so a hash would not do). During a rotation
    -- the previous secret keeps signing until previous_secret_expires_at.
    create table webhooks (
      id text primary key,
      tenant_id text not null references tenants (id),
      environment text not null,
      url text not null,
      events jsonb not null,
      description text,
      status text not null,
      disabled_reason text,
      secret_enc text not null,
      previous_secret_enc text,
      previous_secret_expires_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index webhooks_by_scope on webhooks (tenant_id, environment, created_at desc, id desc)
      where deleted_at is null;

    -- One row per (endpoint, event). status: pending (due at next_attempt_at) | succeeded | failed.
    -- A claimed row's next_attempt_at is pushed out by a lease, so a worker that dies mid-attempt hands
    -- the delivery back to the others instead of losing it.
    create table webhook_deliveries (
      id text primary key,
      tenant_id text not null,
      environment text not null,
      webhook_id text not null references webhooks (id),
      event_id text not null references events (id),
      event_type text not null,
      status text not null,
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_response_status integer,
      last_error_class text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (webhook_id, event_id)
    );
    create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
    create index webhook_deliveries_by_webhook on webhook_deliveries (webhook_id, created_at desc, id desc);

    -- The delivery log: one row per attempt, written before the request leaves (outcome in_flight) and
    -- completed after, so even an attempt cut short by a crash is visible (outcome interrupted).
    create table webhook_attempts (
      delivery_id text not null references webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      outcome text not null,
      started_at timestamptz not null,
      duration_ms integer,
      response_status integer,
      error_class text,
      primary key (delivery_id, attempt)
    );
  `,
};
