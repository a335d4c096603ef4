import type { AppDeps } from '../../app-deps.ts';
import { isAlpha3Country } from '../../domain/countries.ts';
import { isTerminal } from '../../domain/session-status.ts';
import { initialStepProgress, requiredSteps, type StepName } from '../../domain/session-steps.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { IdentityVaultRecord } from '../identities/identity-attributes.ts';
import { identityCipherContext } from '../identities/identity-object.ts';
import { recordSessionEvent } from '../sessions/session-events.ts';
import { sessionCipherContext } from '../sessions/session-object.ts';
import { readSession } from '../sessions/transition-session.ts';
import { issueVerifyToken } from '../sessions/verify-token.ts';
import { attemptsPerStepOf } from '../tenants/attempts-per-step.ts';
import { findIdentityForUpdate, type IdentityRow } from '../../store/identities.ts';
import {
  findUnsettledReverification,
  insertReverification,
  linkSessionToReverification,
  type ReverificationMode,
  type ReverificationReasonCode,
  type ReverificationRow,
} from '../../store/reverifications.ts';
import {
  findSession,
  findSessionForUpdate,
  insertSession,
  type Scope,
  type SessionRow,
} from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { reverificationCipherContext } from './reverification-object.ts';
import { settleReverificationOfSession } from './settle-reverification.ts';

export const DEFAULT_REVERIFICATION_EXPIRES_IN_SECONDS = 86_400;

/** A biometric re-verification asks for consent and a selfie, compared with the enrolled one. */
const BIOMETRIC_STEPS: StepName[] = ['consent', 'liveness'];

export interface ReverificationOrder {
  reason: string;
  reasonCode: ReverificationReasonCode;
  mode: ReverificationMode;
  redirectUrl: string | null;
  expiresInSeconds: number;
}

/**
 * The identity's request that is still running, with its session's expiry applied. A request whose
 * session already ended on a path that did not settle it (expired on read, cancelled) is settled here
 * first, so it never blocks a new one. Call inside a transaction holding the identity's lock.
 */
export async function findOpenReverification(
  tx: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  scope: Scope,
  identityId: string,
): Promise<{ request: ReverificationRow; session: SessionRow } | null> {
  const unsettled = await findUnsettledReverification(tx, scope, identityId);
  if (!unsettled) return null;
  const session = await readSession(
    tx,
    deps,
    scope,
    unsettled.session_id,
    await findSessionForUpdate(tx, scope, unsettled.session_id),
  );
  if (!isTerminal(session.status)) return { request: unsettled, session };
  await settleReverificationOfSession(tx, deps, session);
  return null;
}

/**
 * Opens a re-verification of an identity (API.md §7): a new session linked to it (`full`: the identity's
 * tier steps; `biometric`: consent + liveness against the enrolled selfie) and the request that mirrors
 * it. One open request per identity: a second is 409 `reverification_already_pending` with `existing_id`.
 * `beforeCommit` runs last in the transaction (the route stores its idempotent answer there).
 */
export async function openReverification(
  deps: AppDeps,
  scope: Scope,
  identityId: string,
  order: ReverificationOrder,
  beforeCommit?: (
    tx: SqlClient,
    opened: { request: ReverificationRow; session: SessionRow },
  ) => Promise<void>,
): Promise<{ request: ReverificationRow; session: SessionRow }> {
  return deps.db.transaction(async (tx) => {
    const identity = await findIdentityForUpdate(tx, scope, identityId);
    if (!identity) {
      throw new ApiError('resource_missing', `No identity \`${identityId}\` exists in this environment.`, {
        param: 'identity_id',
      });
    }
    if (identity.status === 'revoked') {
      throw new ApiError('invalid_state_transition', 'A revoked identity cannot be re-verified.', {
        extensions: { current_status: identity.status },
      });
    }
    const open = await findOpenReverification(tx, deps, scope, identity.id);
    if (open) {
      throw new ApiError(
        'reverification_already_pending',
        `The identity already has an open re-verification request \`${open.request.id}\`.`,
        { extensions: { existing_id: open.request.id } },
      );
    }
    if (order.mode === 'biometric' && identity.biometric_session_id === null) {
      throw new ApiError(
        'biometric_reference_missing',
        'The identity has no enrolled selfie (it was verified without liveness); use `mode: full`.',
        { param: 'mode' },
      );
    }
    // The country of the session that last verified the person; retention may have removed that session,
    // and then the document's issuing country is the best we know.
    const origin = await findSession(tx, scope, identity.latest_session_id);
    const now = deps.clock.now();
    const sessionId = deps.ids('sess');
    const requestId = deps.ids('rvr');
    const steps = order.mode === 'biometric' ? BIOMETRIC_STEPS : requiredSteps(identity.flow, identity.tier);
    const token = await issueVerifyToken(deps.cipher, sessionId);
    const reference = identity.external_user_ref_enc
      ? await deps.cipher.decrypt(
          identity.external_user_ref_enc,
          identityCipherContext.externalUserReference(identity.id),
        )
      : null;
    await insertSession(tx, {
      id: sessionId,
      tenant_id: scope.tenantId,
      environment: scope.environment,
      country: origin?.country ?? (await issuingCountryOf(deps, identity)),
      flow: identity.flow,
      tier: identity.tier,
      external_user_ref_enc: reference
        ? await deps.cipher.encrypt(reference, sessionCipherContext.externalUserReference(sessionId))
        : null,
      external_user_ref_index: identity.external_user_ref_index,
      redirect_url: order.redirectUrl,
      metadata_enc: null,
      required_steps: steps,
      steps: initialStepProgress(steps, await attemptsPerStepOf(tx, scope.tenantId)),
      verify_token_hash: token.hash,
      verify_token_nonce: token.nonce,
      sandbox: null,
      expires_at: new Date(now.getTime() + order.expiresInSeconds * 1000),
      created_at: now,
    });
    const request = await insertReverification(tx, {
      id: requestId,
      tenant_id: scope.tenantId,
      environment: scope.environment,
      identity_id: identity.id,
      session_id: sessionId,
      reason_enc: await deps.cipher.encrypt(order.reason, reverificationCipherContext.reason(requestId)),
      reason_code: order.reasonCode,
      mode: order.mode,
      created_at: now,
    });
    await linkSessionToReverification(tx, sessionId, {
      reverificationRequestId: requestId,
      identityId: identity.id,
    });
    const session = (await findSession(tx, scope, sessionId)) as SessionRow;
    await recordSessionEvent(tx, deps, 'session.created', session);
    await beforeCommit?.(tx, { request, session });
    return { request, session };
  });
}

async function issuingCountryOf(deps: Pick<AppDeps, 'cipher'>, identity: IdentityRow): Promise<string> {
  const vault = await deps.cipher.decryptJson<IdentityVaultRecord>(
    identity.attributes_enc,
    identityCipherContext.vault(identity.id),
  );
  const country = vault.attributes.document.issuing_country ?? vault.attributes.nationality;
  if (country && isAlpha3Country(country)) return country;
  throw new ApiError('invalid_state_transition', 'The identity has no known country to re-verify in.');
}
