import type { AppDeps } from '../../app-deps.ts';
import {
  canTransition,
  isOverdue,
  isTerminal,
  type SessionStatus,
  type SessionTrigger,
} from '../../domain/session-status.ts';
import { ApiError } from '../../errors/api-error.ts';
import { settleReverificationOfSession } from '../reverification/settle-reverification.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import {
  findSessionForUpdate,
  type Scope,
  type SessionChanges,
  type SessionRow,
  updateSession,
} from '../../store/sessions.ts';
import { recordSessionEvent, type SessionEventType } from './session-events.ts';

const EVENT_OF_TRIGGER: Partial<Record<SessionTrigger, SessionEventType>> = {
  resubmission_requested: 'session.resubmission_requested',
};

/**
 * Moves a locked session from its current status to `to`, writing its event in the same transaction.
 * Illegal moves are 409 `invalid_state_transition`; the state machine itself is pure (domain/).
 */
export async function transitionSession(
  tx: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  session: SessionRow,
  to: SessionStatus,
  trigger: SessionTrigger,
  changes: SessionChanges = {},
): Promise<SessionRow> {
  if (!canTransition(session.status, to, trigger)) {
    throw new ApiError(
      'invalid_state_transition',
      `A session in status \`${session.status}\` cannot move to \`${to}\`.`,
      { extensions: { current_status: session.status } },
    );
  }
  // The verify token keeps resolving after a terminal state: the hosted page must still read the outcome
  // to redirect the end-user; the verify endpoints make a terminal session read-only.
  const updated = await updateSession(
    tx,
    session.id,
    session.status,
    { ...changes, status: to },
    deps.clock.now(),
  );
  if (!updated)
    throw new ApiError('invalid_state_transition', 'The session changed concurrently; read it again.');
  await recordSessionEvent(tx, deps, EVENT_OF_TRIGGER[trigger] ?? `session.${to}`, updated);
  // Whatever ended the session (review, cancel, expiry, exhausted attempts), a re-verification request
  // linked to it settles in the same transaction, so `reverification.completed` is never late or lost.
  if (isTerminal(to)) await settleReverificationOfSession(tx, deps, updated);
  return updated;
}

/**
 * Loads a session for a read and applies expiry first, so no client ever sees `created`/`collecting`
 * after `expires_at` even if the background sweeper has not run yet.
 */
export async function readSession(
  sql: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  scope: Scope,
  id: string,
  row: SessionRow | null,
): Promise<SessionRow> {
  if (!row)
    throw new ApiError('resource_missing', `No session \`${id}\` exists in this environment.`, {
      param: 'id',
    });
  if (!isOverdue(row.status, row.expires_at, deps.clock.now())) return row;
  // Inside a caller's transaction this reuses it (the row is then already locked).
  return sql.transaction(async (tx) => {
    const locked = await findSessionForUpdate(tx, scope, id);
    if (!locked || !isOverdue(locked.status, locked.expires_at, deps.clock.now())) return locked ?? row;
    return transitionSession(tx, deps, locked, 'expired', 'expired');
  });
}
