import type { AppDeps } from '../../app-deps.ts';
import { isTerminal } from '../../domain/session-status.ts';
import { recordIdentityEvent } from '../identities/identity-events.ts';
import { findIdentityForUpdate, updateIdentity } from '../../store/identities.ts';
import { settleReverification } from '../../store/reverifications.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { reverificationStatusOf } from './reverification-status.ts';

/**
 * Closes the re-verification request of a session that reached a terminal status, in the transaction that
 * moved it: a rejection marks the identity `reverification_failed` (an approval has already refreshed it)
 * and `reverification.completed` is written. Safe to call more than once and for any session: it acts
 * only the first time, and only for a re-verification session.
 */
export async function settleReverificationOfSession(
  tx: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  session: SessionRow,
): Promise<void> {
  const requestId = session.reverification_request_id;
  if (requestId === null || session.identity_id === null || !isTerminal(session.status)) return;
  const now = deps.clock.now();
  if (!(await settleReverification(tx, requestId, session.status, now))) return;
  if (session.status === 'rejected') {
    const scope = { tenantId: session.tenant_id, environment: session.environment };
    const identity = await findIdentityForUpdate(tx, scope, session.identity_id);
    if (identity && identity.status !== 'revoked') {
      await updateIdentity(tx, identity.id, { status: 'reverification_failed' }, now);
    }
  }
  await recordIdentityEvent(tx, deps, 'reverification.completed', {
    tenantId: session.tenant_id,
    environment: session.environment,
    identityId: session.identity_id,
    sessionId: session.id,
    extra: {
      reverification_request_id: requestId,
      status: reverificationStatusOf(session.status),
      decision: session.decision,
    },
  });
}
