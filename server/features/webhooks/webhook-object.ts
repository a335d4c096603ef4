import type { EventRow } from '../../store/events.ts';
import type { AttemptRow, DeliveryRow } from '../../store/webhook-deliveries.ts';
import type { WebhookRow } from '../../store/webhooks.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The API's webhook object: never the secret (that is only in create and rotate responses). */
export function toWebhookObject(row: WebhookRow, now: Date) {
  const overlap = row.previous_secret_expires_at;
  return {
    object: 'webhook' as const,
    webhook_id: row.id,
    url: row.url,
    events: row.events,
    status: row.status,
    environment: row.environment,
    description: row.description,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: overlap && overlap.getTime() > now.getTime() ? overlap.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A delivery with its attempt log (attempt, status, response code, duration, error class). */
export function toDeliveryObject(row: DeliveryRow, attempts: readonly AttemptRow[]) {
  return {
    object: 'webhook_delivery' as const,
    delivery_id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempts,
    // A claimed row's next_attempt_at is its lease, not a schedule: show the schedule only when pending.
    next_attempt_at:
      row.status === 'pending' && !attempts.some((attempt) => attempt.outcome === 'in_flight')
        ? iso(row.next_attempt_at)
        : null,
    last_attempt_at: iso(row.last_attempt_at),
    last_response_status: row.last_response_status,
    last_error_class: row.last_error_class,
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      status: attempt.outcome,
      response_status: attempt.response_status,
      duration_ms: attempt.duration_ms,
      error_class: attempt.error_class,
      started_at: attempt.started_at.toISOString(),
    })),
    created_at: row.created_at.toISOString(),
  };
}

export function toEventObject(row: EventRow) {
  return {
    object: 'event' as const,
    event_id: row.id,
    type: row.type,
    environment: row.environment,
    session_id: row.session_id,
    identity_id: row.identity_id,
    created_at: row.created_at.toISOString(),
    payload: row.payload,
  };
}
