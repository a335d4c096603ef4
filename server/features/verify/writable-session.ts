import type { AppDeps } from '../../app-deps.ts';
import type { StepName } from '../../domain/session-steps.ts';
import { readSession, transitionSession } from '../sessions/transition-session.ts';
import { insertDecision } from '../../store/decisions.ts';
import { findSessionForUpdate, type SessionRow, updateSession } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { attemptsExhaustedDecision } from './attempts-exhausted-decision.ts';
import { applyStepOutcome, type StepOutcome, stepOf } from './step-progress.ts';
import { verifyError } from './verify-errors.ts';

const READ_ONLY = 'This verification can no longer be changed.';

/**
 * Runs an end-user write on the locked session, in one transaction. A `created` session is started first
 * (the widget may skip the session read); anything but `collecting` is read-only (409), an overdue one
 * is expired on the spot (410). Steps the write depends on (consent before any evidence) must be done.
 */
export async function withWritableSession<T>(
  deps: AppDeps,
  session: SessionRow,
  options: { needs?: StepName[] },
  work: (tx: SqlClient, session: SessionRow) => Promise<T>,
): Promise<T> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  return deps.db.transaction(async (tx) => {
    let locked = await readSession(
      tx,
      deps,
      scope,
      session.id,
      await findSessionForUpdate(tx, scope, session.id),
    );
    if (locked.status === 'expired') {
      throw verifyError('session_expired', 'This verification has expired. Please ask for a new link.');
    }
    if (locked.status === 'created')
      locked = await transitionSession(tx, deps, locked, 'collecting', 'end_user_started');
    if (locked.status !== 'collecting') {
      throw verifyError('invalid_state_transition', READ_ONLY, {
        extensions: { current_status: locked.status },
      });
    }
    const missing = (options.needs ?? []).filter(
      (step) => stepOf(locked.steps, step)?.status !== 'completed',
    );
    if (missing.length > 0) {
      throw verifyError('steps_incomplete', 'Please complete the previous steps first.', {
        extensions: { missing_steps: missing },
      });
    }
    return work(tx, locked);
  });
}

/**
 * Records a step's outcome on a locked `collecting` session. The last failed attempt rejects the session
 * with `attempts_exhausted` (API.md §4), writing its event and its automated decision record (reason and
 * failed check, read by `GET /v1/sessions/:id/result`) in the same transaction.
 */
export async function recordStepOutcome(
  tx: SqlClient,
  deps: AppDeps,
  session: SessionRow,
  step: StepName,
  outcome: StepOutcome,
): Promise<SessionRow> {
  const { steps, exhausted } = applyStepOutcome(session.steps, step, outcome);
  if (exhausted) {
    const now = deps.clock.now();
    const rejected = await transitionSession(tx, deps, session, 'rejected', 'attempts_exhausted', {
      steps,
      decision: 'rejected',
      decided_at: now,
      last_error: { code: 'attempts_exhausted', reason: `The end-user used every attempt at ${step}.` },
    });
    const { reasons, checks } = attemptsExhaustedDecision(step);
    await insertDecision(tx, {
      tenant_id: session.tenant_id,
      environment: session.environment,
      session_id: session.id,
      outcome: 'rejected',
      decided_by: 'automated',
      reviewer_id: null,
      reasons,
      checks,
      note_enc: null,
      created_at: now,
    });
    return rejected;
  }
  const updated = await updateSession(tx, session.id, session.status, { steps }, deps.clock.now());
  if (!updated) throw new Error('The session changed while it was locked.');
  return updated;
}
