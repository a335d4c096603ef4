import type { Environment } from '../domain/api-key-format.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';
import { keysetClause, type PageOptions, pageOf } from './webhooks.ts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
export type AttemptOutcome = 'in_flight' | 'succeeded' | 'failed' | 'interrupted';

export interface DeliveryRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error_class: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  outcome: AttemptOutcome;
  started_at: Date;
  duration_ms: number | null;
  response_status: number | null;
  error_class: string | null;
}

/**
 * Turns up to `limit` events not yet fanned out into one pending delivery per subscribed endpoint, and
 * stamps them, in one transaction: a crash before the commit leaves them to the next run, after it they
 * are queued durably. `SKIP LOCKED` lets several workers fan out side by side. Returns the events handled.
 */
export async function fanOutEvents(
  tx: SqlClient,
  options: { now: Date; limit: number; newId: () => string },
): Promise<number> {
  const events = await tx.query<{ id: string }>(
    `select id from events where fanned_out_at is null order by created_at, id limit $1 for update skip locked`,
    [options.limit],
  );
  if (events.length === 0) return 0;
  const ids = events.map((event) => event.id);
  const pairs = await tx.query<{
    event_id: string;
    event_type: string;
    tenant_id: string;
    environment: string;
    webhook_id: string;
  }>(
    `select e.id as event_id, e.type as event_type, e.tenant_id, e.environment, w.id as webhook_id
     from events e
     join webhooks w on w.tenant_id = e.tenant_id and w.environment = e.environment
       and w.status = 'active' and w.deleted_at is null and w.created_at <= e.created_at
       and (w.events @> '["*"]'::jsonb or w.events @> jsonb_build_array(e.type))
     where e.id = any($1::text[])`,
    [ids],
  );
  if (pairs.length > 0) {
    const params: unknown[] = [options.now];
    const rows = pairs.map((pair) => {
      params.push(
        options.newId(),
        pair.tenant_id,
        pair.environment,
        pair.webhook_id,
        pair.event_id,
        pair.event_type,
      );
      const n = params.length;
      return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}, 'pending', 0, $1, $1, $1)`;
    });
    await tx.query(
      `insert into webhook_deliveries (id, tenant_id, environment, webhook_id, event_id, event_type, status,
         attempts, next_attempt_at, created_at, updated_at)
       values ${rows.join(', ')}
       on conflict (webhook_id, event_id) do nothing`,
      params,
    );
  }
  await tx.query('update events set fanned_out_at = $2 where id = any($1::text[])', [ids, options.now]);
  return events.length;
}

/**
 * Whether a worker round could find anything: an event awaiting fan-out or a pending delivery that is due
 * (of any endpoint; the claim itself then checks the endpoint). One plain read on two partial indexes, no
 * transaction and no lock, so an idle worker costs one round trip per poll instead of six (two
 * transactions of begin, select, commit).
 */
export async function hasWebhookWork(sql: SqlClient, now: Date): Promise<boolean> {
  const rows = await sql.query<{ work: boolean }>(
    `select exists (select 1 from events where fanned_out_at is null)
       or exists (select 1 from webhook_deliveries where status = 'pending' and next_attempt_at <= $1) as work`,
    [now],
  );
  return rows[0]?.work === true;
}

/** A claimed delivery with everything needed to send it. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  attempt: number;
  webhook: {
    id: string;
    url: string;
    environment: Environment;
    secret_enc: string;
    previous_secret_enc: string | null;
    previous_secret_expires_at: Date | null;
  };
  event: { id: string; type: string; payload: Record<string, unknown>; created_at: Date };
}

export interface ClaimOptions {
  now: Date;
  /** Until when the claim holds; a worker that dies mid-attempt releases the delivery at this time. */
  leaseUntil: Date;
  limit: number;
  /** Claim this delivery whatever its schedule (the test endpoint), else every due one. */
  deliveryId?: string;
}

/**
 * Claims due deliveries of active endpoints (`FOR UPDATE SKIP LOCKED`: instances never claim the same
 * row), counts the attempt, pushes `next_attempt_at` out by the lease, and writes an `in_flight` attempt
 * row so the log shows it even if the process dies before the answer. Any attempt still `in_flight` from
 * an earlier claim was cut short: it is marked `interrupted`.
 */
export async function claimDeliveries(tx: SqlClient, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const byId = options.deliveryId !== undefined;
  const claimed = await tx.query<DeliveryRow>(
    `with due as (
       select d.id from webhook_deliveries d
       join webhooks w on w.id = d.webhook_id
       where w.deleted_at is null and ${
         byId ? 'd.id = $4' : `d.status = 'pending' and d.next_attempt_at <= $1 and w.status = 'active'`
       }
       order by d.next_attempt_at
       limit $3
       for update of d skip locked
     )
     update webhook_deliveries d
     set attempts = d.attempts + 1, next_attempt_at = $2, last_attempt_at = $1, updated_at = $1
     from due where d.id = due.id
     returning d.*`,
    byId
      ? [options.now, options.leaseUntil, options.limit, options.deliveryId]
      : [options.now, options.leaseUntil, options.limit],
  );
  if (claimed.length === 0) return [];
  const ids = claimed.map((row) => row.id);
  await tx.query(
    `update webhook_attempts set outcome = 'interrupted', error_class = 'interrupted'
     where delivery_id = any($1::text[]) and outcome = 'in_flight'`,
    [ids],
  );
  const params: unknown[] = [options.now];
  const values = claimed.map((row) => {
    params.push(row.id, row.attempts);
    return `($${params.length - 1}, $${params.length}, 'in_flight', $1)`;
  });
  await tx.query(
    `insert into webhook_attempts (delivery_id, attempt, outcome, started_at) values ${values.join(', ')}`,
    params,
  );
  const details = await tx.query<{
    delivery_id: string;
    url: string;
    environment: Environment;
    secret_enc: string;
    previous_secret_enc: string | null;
    previous_secret_expires_at: Date | null;
    event_type: string;
    payload: Record<string, unknown>;
    event_created_at: Date;
  }>(
    `select d.id as delivery_id, w.url, w.environment, w.secret_enc, w.previous_secret_enc,
       w.previous_secret_expires_at, e.type as event_type, e.payload, e.created_at as event_created_at
     from webhook_deliveries d
     join webhooks w on w.id = d.webhook_id
     join events e on e.id = d.event_id
     where d.id = any($1::text[])`,
    [ids],
  );
  const detailOf = new Map(details.map((detail) => [detail.delivery_id, detail]));
  return claimed.flatMap((delivery) => {
    const detail = detailOf.get(delivery.id);
    if (!detail) return [];
    return [
      {
        delivery,
        attempt: delivery.attempts,
        webhook: {
          id: delivery.webhook_id,
          url: detail.url,
          environment: detail.environment,
          secret_enc: detail.secret_enc,
          previous_secret_enc: detail.previous_secret_enc,
          previous_secret_expires_at: detail.previous_secret_expires_at,
        },
        event: {
          id: delivery.event_id,
          type: detail.event_type,
          payload: detail.payload,
          created_at: detail.event_created_at,
        },
      },
    ];
  });
}

export interface AttemptResult {
  deliveryId: string;
  attempt: number;
  outcome: 'succeeded' | 'failed';
  durationMs: number;
  responseStatus: number | null;
  errorClass: string | null;
  /** When to try again; null ends the delivery (succeeded, or failed for good). */
  nextAttemptAt: Date | null;
  now: Date;
}

/**
 * Records the answer of an attempt and moves the delivery on. If a slower worker reports after the lease
 * ran out and another instance has re-claimed the delivery, only a success still counts; a stale failure
 * leaves the newer attempt in charge.
 */
export async function completeAttempt(tx: SqlClient, result: AttemptResult): Promise<DeliveryRow | null> {
  await tx.query(
    `update webhook_attempts set outcome = $3, duration_ms = $4, response_status = $5, error_class = $6
     where delivery_id = $1 and attempt = $2`,
    [
      result.deliveryId,
      result.attempt,
      result.outcome,
      result.durationMs,
      result.responseStatus,
      result.errorClass,
    ],
  );
  const status: DeliveryStatus =
    result.outcome === 'succeeded' ? 'succeeded' : result.nextAttemptAt ? 'pending' : 'failed';
  const rows = await tx.query<DeliveryRow>(
    `update webhook_deliveries
     set status = $3, next_attempt_at = $4, last_response_status = $5, last_error_class = $6, updated_at = $7
     where id = $1 and (attempts = $2 or $3 = 'succeeded')
     returning *`,
    [
      result.deliveryId,
      result.attempt,
      status,
      result.nextAttemptAt,
      result.responseStatus,
      result.errorClass,
      result.now,
    ],
  );
  return rows[0] ?? null;
}

/** Queues a test delivery: created not due (next_attempt_at null), then claimed by id and sent at once. */
export async function insertDelivery(
  tx: SqlClient,
  delivery: Pick<
    DeliveryRow,
    'id' | 'tenant_id' | 'environment' | 'webhook_id' | 'event_id' | 'event_type'
  > & {
    now: Date;
    nextAttemptAt: Date | null;
  },
): Promise<void> {
  await tx.query(
    `insert into webhook_deliveries (id, tenant_id, environment, webhook_id, event_id, event_type, status,
       attempts, next_attempt_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, $8, $8)`,
    [
      delivery.id,
      delivery.tenant_id,
      delivery.environment,
      delivery.webhook_id,
      delivery.event_id,
      delivery.event_type,
      delivery.nextAttemptAt,
      delivery.now,
    ],
  );
}

export async function findDelivery(
  sql: SqlClient,
  scope: Scope,
  webhookId: string,
  id: string,
): Promise<DeliveryRow | null> {
  const rows = await sql.query<DeliveryRow>(
    `select * from webhook_deliveries
     where id = $1 and webhook_id = $2 and tenant_id = $3 and environment = $4`,
    [id, webhookId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export interface DeliveryFilters {
  status?: DeliveryStatus | undefined;
  eventId?: string | undefined;
  since: Date;
}

export async function listDeliveries(
  sql: SqlClient,
  scope: Scope,
  webhookId: string,
  filters: DeliveryFilters,
  page: PageOptions,
): Promise<{ rows: DeliveryRow[]; hasMore: boolean }> {
  const params: unknown[] = [scope.tenantId, scope.environment, webhookId, filters.since];
  let where = `select * from webhook_deliveries
    where tenant_id = $1 and environment = $2 and webhook_id = $3 and created_at >= $4`;
  if (filters.status) {
    params.push(filters.status);
    where += ` and status = $${params.length}`;
  }
  if (filters.eventId) {
    params.push(filters.eventId);
    where += ` and event_id = $${params.length}`;
  }
  where += keysetClause(page, params);
  return pageOf<DeliveryRow>(sql, where, params, page);
}

export async function listAttempts(sql: SqlClient, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return sql.query<AttemptRow>(
    'select * from webhook_attempts where delivery_id = any($1::text[]) order by delivery_id, attempt',
    [deliveryIds],
  );
}

/**
 * Makes a delivery due now (manual retry). A delivery with an attempt in flight is left alone: it is
 * being sent at this moment. Returns the row as it is afterwards.
 */
export async function retryDeliveryNow(
  tx: SqlClient,
  scope: Scope,
  id: string,
  now: Date,
): Promise<DeliveryRow | null> {
  const rows = await tx.query<DeliveryRow>(
    `update webhook_deliveries d set status = 'pending', next_attempt_at = $4, updated_at = $4
     where d.id = $1 and d.tenant_id = $2 and d.environment = $3
       and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id and a.outcome = 'in_flight')
     returning *`,
    [id, scope.tenantId, scope.environment, now],
  );
  return rows[0] ?? null;
}

/**
 * Retention (API.md §10): deliveries and their attempts are kept 30 days. Deletes up to `limit` finished
 * deliveries created before `cutoff`, oldest first, and returns how many went: a backlog (a worker that was
 * down for days) goes in bounded statements instead of one delete holding its locks for all of it. The
 * ids are read into an array first so the delete probes the primary key; with `id in (subquery)` the
 * planner may hash the whole table instead (docs/benchmarks.md, "Scale").
 */
export async function purgeDeliveriesBefore(sql: SqlClient, cutoff: Date, limit: number): Promise<number> {
  const rows = await sql.query(
    `delete from webhook_deliveries where id = any(array(
       select id from webhook_deliveries
        where created_at < $1 and status <> 'pending'
        order by created_at limit $2))
     returning 1`,
    [cutoff, limit],
  );
  return rows.length;
}

/** Marks an event as needing no fan-out (a test event addressed to one endpoint). */
export async function markEventFannedOut(tx: SqlClient, eventId: string, now: Date): Promise<void> {
  await tx.query('update events set fanned_out_at = $2 where id = $1', [eventId, now]);
}
