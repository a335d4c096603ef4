import type { AppDeps } from '../../app-deps.ts';
import { missingSteps } from '../../domain/session-steps.ts';
import { ApiError } from '../../errors/api-error.ts';
import { processingDelayOf } from '../review/review-input-of-session.ts';
import { insertReviewJob } from '../../store/jobs.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { findSessionForUpdate, type Scope, type SessionRow } from '../../store/sessions.ts';
import { readSession, transitionSession } from './transition-session.ts';

/**
 * Moves a session whose required steps are all complete to `processing` and queues its automated review
 * in the same transaction, so a crash can never leave a processing session without a job: the tenant's
 * submit and the end-user's `POST /v1/verify/complete` both come here. Submitting a processing session is
 * a no-op. A sandbox session's `processing_delay_ms` delays when the job becomes due.
 */
export async function submitSession(
  db: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  scope: Scope,
  id: string,
  /** Runs last in the transaction with the submitted row: the caller stores its idempotent answer. */
  beforeCommit: (tx: SqlClient, submitted: SessionRow) => Promise<void> = async () => {},
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const locked = await readSession(tx, deps, scope, id, await findSessionForUpdate(tx, scope, id));
    if (locked.status === 'processing') {
      await beforeCommit(tx, locked);
      return locked;
    }
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
    const now = deps.clock.now();
    const processing = await transitionSession(tx, deps, locked, 'processing', 'submitted', {
      submitted_at: now,
    });
    const delay = locked.environment === 'sandbox' ? processingDelayOf(locked.sandbox) : 0;
    await insertReviewJob(tx, {
      id: deps.ids('job'),
      tenant_id: locked.tenant_id,
      environment: locked.environment,
      session_id: locked.id,
      run_at: new Date(now.getTime() + delay),
      created_at: now,
    });
    await beforeCommit(tx, processing);
    return processing;
  });
}
