import type { AppDeps } from '../../app-deps.ts';
import type { Environment } from '../../domain/api-key-format.ts';
import { insertEvent } from '../../store/events.ts';
import type { SqlClient } from '../../store/sql-client.ts';

export type IdentityEventType = 'identity.created' | 'identity.updated' | 'reverification.completed';

/**
 * Writes an identity or re-verification event to the outbox, in the caller's transaction. Thin like every
 * event (API.md §8): ids and statuses only, never attributes.
 */
export async function recordIdentityEvent(
  tx: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  type: IdentityEventType,
  subject: {
    tenantId: string;
    environment: Environment;
    identityId: string;
    sessionId: string;
    extra?: Record<string, string | null>;
  },
): Promise<void> {
  const id = deps.ids('evt');
  const createdAt = deps.clock.now();
  await insertEvent(tx, {
    id,
    tenant_id: subject.tenantId,
    environment: subject.environment,
    type,
    session_id: subject.sessionId,
    identity_id: subject.identityId,
    payload: {
      event: type,
      event_id: id,
      created_at: createdAt.toISOString(),
      environment: subject.environment,
      identity_id: subject.identityId,
      session_id: subject.sessionId,
      ...subject.extra,
    },
    created_at: createdAt,
  });
}
