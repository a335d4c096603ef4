import type { AppDeps } from '../../app-deps.ts';
import type { ReverificationRow } from '../../store/reverifications.ts';
import type { SessionRow } from '../../store/sessions.ts';
import { toSessionObject } from '../sessions/session-object.ts';
import { reverificationStatusOf } from './reverification-status.ts';

export const reverificationCipherContext = {
  reason: (requestId: string) => `reverification.reason:${requestId}`,
};

/** The request as the API shows it (API.md §7); its status and link mirror the linked session. */
export async function toReverificationObject(
  deps: Pick<AppDeps, 'cipher' | 'config'>,
  request: ReverificationRow,
  session: SessionRow,
) {
  const sessionObject = await toSessionObject(deps, session);
  return {
    object: 'reverification_request' as const,
    reverification_request_id: request.id,
    identity_id: request.identity_id,
    reason: await deps.cipher.decrypt(request.reason_enc, reverificationCipherContext.reason(request.id)),
    reason_code: request.reason_code,
    mode: request.mode,
    status: reverificationStatusOf(session.status),
    session_id: session.id,
    verify_url: sessionObject.verify_url ?? null,
    required_steps: session.required_steps,
    expires_at: session.expires_at.toISOString(),
    created_at: request.created_at.toISOString(),
    completed_at: request.completed_at?.toISOString() ?? null,
  };
}
