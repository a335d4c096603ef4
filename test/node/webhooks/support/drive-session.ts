import type { SessionStatus } from '../../../../server/domain/session-status.ts';
import { transitionSession } from '../../../../server/features/sessions/transition-session.ts';
import { insertEvent } from '../../../../server/store/events.ts';
import { findSessionForUpdate, type SessionRow } from '../../../../server/store/sessions.ts';
import type { TestHarness } from '../../support/test-app.ts';

/**
 * Drives a session through the real transition function (the same one the engine uses), so each step
 * writes its event to the outbox in the step's own transaction.
 */
export async function driveSession(
  h: TestHarness,
  sessionId: string,
  outcome: 'approved' | 'rejected' | 'review_required' | 'expired',
  options: { identityId?: string; environment?: 'sandbox' | 'production'; tenantId?: string } = {},
): Promise<SessionRow> {
  const scope = {
    tenantId: options.tenantId ?? h.tenant.tenantId,
    environment: options.environment ?? 'sandbox',
  };
  return h.deps.db.transaction(async (tx) => {
    let session = (await findSessionForUpdate(tx, scope, sessionId)) as SessionRow;
    if (outcome === 'expired') return transitionSession(tx, h.deps, session, 'expired', 'expired');
    session = await transitionSession(tx, h.deps, session, 'collecting', 'end_user_started');
    session = await transitionSession(tx, h.deps, session, 'processing', 'submitted');
    if (options.identityId) {
      // The engine links the identity when it approves; SessionChanges has no column for it yet.
      await tx.query('update sessions set identity_id = $2 where id = $1', [sessionId, options.identityId]);
      session = { ...session, identity_id: options.identityId };
    }
    const to: SessionStatus = outcome;
    session = await transitionSession(tx, h.deps, session, to, 'decided', {
      decision: outcome,
      decided_at: h.clock.now(),
    });
    if (options.identityId) {
      const id = h.deps.ids('evt');
      await insertEvent(tx, {
        id,
        tenant_id: session.tenant_id,
        environment: session.environment,
        type: 'identity.created',
        session_id: session.id,
        identity_id: options.identityId,
        payload: { event: 'identity.created', identity_id: options.identityId, session_id: session.id },
        created_at: h.clock.now(),
      });
    }
    return session;
  });
}
