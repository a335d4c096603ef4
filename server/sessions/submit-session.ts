import type { AppDeps } from '../app-deps.ts';
import { missingSteps } from '../domain/session-steps.ts';
import { ApiError } from '../errors/api-error.ts';
import type { SqlClient } from '../store/sql-client.ts';
import { findSessionForUpdate, type Scope, type SessionRow } from '../store/sessions.ts';
import { readSession, transitionSession } from './transition-session.ts';

/**
 * Moves a session whose required steps are all complete to `processing`: the tenant's submit and the
 * end-user's `POST /v1/verify/complete` both come here. Submitting a processing session is a no-op.
 */
export async function submitSession(
  db: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  scope: Scope,
  id: string,
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const locked = await readSession(tx, deps, scope, id, await findSessionForUpdate(tx, scope, id));
    if (locked.status === 'processing') return locked;
    if (locked.status !== 'created' && locked.status !== 'collecting') {
      throw new ApiError(
        'invalid_state_transition',
        `A session in status \`${locked.status}\` cannot be submitted.`,
        { extensions: { current_status: locked.status } },
      );
    }
    const missing = missingSteps(locked.steps);
    if (missing.length > 0 || locked.status === 'created') {
      throw new ApiError('steps_incomplete', `The end-user has not completed: ${missing.join(', ')}.`, {
        extensions: { missing_steps: missing },
      });
    }
    return transitionSession(tx, deps, locked, 'processing', 'submitted', { submitted_at: deps.clock.now() });
  });
}
