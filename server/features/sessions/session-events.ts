import type { AppDeps } from '../../app-deps.ts';
import type { SessionStatus } from '../../domain/session-status.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { type EventRow, insertEvent } from '../../store/events.ts';
import type { SessionRow } from '../../store/sessions.ts';

export type SessionEventType =
  `session.${Exclude<SessionStatus, 'created'> | 'created' | 'resubmission_requested'}`;

/** The fields of a session that its events carry: ids and status, never personal data. */
export type SessionEventSubject = Pick<
  SessionRow,
  'id' | 'tenant_id' | 'environment' | 'identity_id' | 'decision' | 'status'
>;

/**
 * A session event as the outbox stores it. Thin by design (API.md §8): ids and status only, never
 * personal data, so a webhook or log can carry it safely.
 */
export function sessionEventRow(
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  type: SessionEventType,
  session: SessionEventSubject,
): EventRow {
  const id = deps.ids('evt');
  const createdAt = deps.clock.now();
  return {
    id,
    tenant_id: session.tenant_id,
    environment: session.environment,
    type,
    session_id: session.id,
    identity_id: session.identity_id,
    payload: {
      event: type,
      event_id: id,
      created_at: createdAt.toISOString(),
      environment: session.environment,
      session_id: session.id,
      identity_id: session.identity_id,
      decision: session.decision,
      status: session.status,
    },
    created_at: createdAt,
  };
}

/** Writes a session event to the outbox. Call inside the transaction that changed the session. */
export async function recordSessionEvent(
  tx: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  type: SessionEventType,
  session: SessionRow,
): Promise<void> {
  await insertEvent(tx, sessionEventRow(deps, type, session));
}
