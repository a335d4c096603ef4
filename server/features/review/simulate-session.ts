import type { AppDeps } from '../../app-deps.ts';
import type { ReasonCode } from '../../domain/review/index.ts';
import type { SessionStatus } from '../../domain/session-status.ts';
import { ApiError } from '../../errors/api-error.ts';
import { submitSession } from '../sessions/submit-session.ts';
import { findVerifyConsent, upsertVerifyConsent } from '../../store/verify-consents.ts';
import { readSession, transitionSession } from '../sessions/transition-session.ts';
import {
  findSession,
  findSessionForUpdate,
  type Scope,
  type SessionRow,
  updateSession,
} from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { applyDecision, requestResubmission } from './apply-review-outcome.ts';
import { shouldRequestResubmission } from './resubmission.ts';
import { reviewByPerson } from './review-by-person.ts';
import { reviewSession } from './review-session.ts';

export const SIMULATE_ACTIONS = [
  'start',
  'complete_steps',
  'submit',
  'approve',
  'reject',
  'review',
  'expire',
] as const;
export type SimulateAction = (typeof SIMULATE_ACTIONS)[number];

type Deps = AppDeps;

const DECISION_OF = { approve: 'approved', reject: 'rejected', review: 'review_required' } as const;

/**
 * Drives a sandbox session as if the end-user or the engine had acted (API.md §4), through the real
 * transitions, so every event a tenant's integration will see in production fires. Earlier steps are
 * walked through when needed (`approve` on a new session starts, completes, submits, then decides), and
 * an action the session is already past is 409 `invalid_state_transition`:
 *
 * - `start`: created → collecting; `complete_steps`: every required step completed (starting first);
 * - `submit`: the real submit (the job honours `processing_delay_ms`);
 * - `approve` / `reject` / `review`: the engine's decision now, forced to that outcome (reasons carry
 *   `sandbox_forced` and `reason_codes`); the checks still run on whatever evidence exists, and a
 *   rejection with only recapturable codes is sent back for resubmission as the engine would. On a
 *   `review_required` session, `approve` and `reject` act as a reviewer;
 * - `expire`: created/collecting → expired.
 */
export async function simulateSession(
  deps: Deps,
  scope: Scope,
  sessionId: string,
  action: SimulateAction,
  reasonCodes: readonly ReasonCode[] = [],
): Promise<SessionRow> {
  const current = await load(deps.db, deps, scope, sessionId);
  switch (action) {
    case 'start':
      return deps.db.transaction((tx) => walk(tx, deps, scope, sessionId, 'collecting'));
    case 'complete_steps':
      return deps.db.transaction((tx) => walk(tx, deps, scope, sessionId, 'steps_completed'));
    case 'submit':
      return deps.db.transaction((tx) => walk(tx, deps, scope, sessionId, 'processing'));
    case 'expire':
      return deps.db.transaction(async (tx) => {
        const locked = await load(tx, deps, scope, sessionId, true);
        expectStatus(locked, ['created', 'collecting'], action);
        return transitionSession(tx, deps, locked, 'expired', 'expired');
      });
    case 'approve':
    case 'reject':
    case 'review':
      if (current.status === 'review_required' && action !== 'review') {
        return reviewByPerson(deps, scope, sessionId, {
          decision: action,
          reasonCodes,
          reviewerId: 'sandbox_simulation',
        });
      }
      return decideNow(deps, scope, sessionId, DECISION_OF[action], reasonCodes);
  }
}

async function decideNow(
  deps: Deps,
  scope: Scope,
  sessionId: string,
  outcome: 'approved' | 'rejected' | 'review_required',
  reasonCodes: readonly ReasonCode[],
): Promise<SessionRow> {
  const processing = await deps.db.transaction((tx) => walk(tx, deps, scope, sessionId, 'processing'));
  const { evidence, result } = await reviewSession(deps, processing, { outcome, reason_codes: reasonCodes });
  return deps.db.transaction(async (tx) => {
    const locked = await load(tx, deps, scope, sessionId, true);
    expectStatus(locked, ['processing'], outcome);
    if (shouldRequestResubmission(result, locked, deps.clock.now())) {
      return requestResubmission(tx, deps, locked, result);
    }
    return applyDecision(
      tx,
      deps,
      locked,
      { decision: result.decision, reasons: result.reasons, checks: result.checks, decidedBy: 'automated' },
      evidence,
    );
  });
}

type Milestone = 'collecting' | 'steps_completed' | 'processing';

/** Moves the session forward to the milestone through the real transitions; already there is a no-op. */
async function walk(
  tx: SqlClient,
  deps: Deps,
  scope: Scope,
  sessionId: string,
  target: Milestone,
): Promise<SessionRow> {
  let session = await load(tx, deps, scope, sessionId, true);
  const reachable: SessionStatus[] =
    target === 'processing' ? ['created', 'collecting', 'processing'] : ['created', 'collecting'];
  expectStatus(session, reachable, target);
  if (session.status === 'created') {
    session = await transitionSession(tx, deps, session, 'collecting', 'end_user_started');
  }
  if (target === 'collecting' || session.status === 'processing') return session;
  if (session.steps.some((step) => step.status !== 'completed')) {
    const steps = session.steps.map((step) => ({ ...step, status: 'completed' as const }));
    // As if the end-user had acted: they agreed. Without a consent record the review would fail the
    // consent check, a state no real session reaches (the verify endpoints require consent first).
    // Nothing else is invented: every other check reports what it really found (nothing: inconclusive).
    if ((await findVerifyConsent(tx, scope, session.id)) === null) {
      await upsertVerifyConsent(tx, {
        session_id: session.id,
        tenant_id: session.tenant_id,
        environment: session.environment,
        accepted: true,
        consent_version: 'sandbox-simulation',
        locale: null,
        ip_enc: null,
        user_agent_enc: null,
        recorded_at: deps.clock.now(),
      });
    }
    session = (await updateSession(tx, session.id, session.status, { steps }, deps.clock.now())) ?? session;
  }
  if (target === 'steps_completed') return session;
  return submitSession(tx, deps, scope, sessionId);
}

async function load(
  sql: SqlClient,
  deps: Deps,
  scope: Scope,
  sessionId: string,
  lock = false,
): Promise<SessionRow> {
  const row = lock
    ? await findSessionForUpdate(sql, scope, sessionId)
    : await findSession(sql, scope, sessionId);
  return readSession(sql, deps, scope, sessionId, row);
}

function expectStatus(session: SessionRow, allowed: readonly SessionStatus[], action: string): void {
  if (!allowed.includes(session.status)) {
    throw new ApiError(
      'invalid_state_transition',
      `Cannot simulate \`${action}\` on a session in status \`${session.status}\`.`,
      { extensions: { current_status: session.status } },
    );
  }
}
