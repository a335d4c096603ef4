import type { AppDeps } from '../../app-deps.ts';
import { isTerminal } from '../../domain/session-status.ts';
import type { IdentityRow } from '../../store/identities.ts';
import type { ReverificationWithSession } from '../../store/reverifications.ts';
import type { IdentityVaultRecord } from './identity-attributes.ts';
import { maskDeep } from './mask-personal-value.ts';

export type IdentityStatus = 'verified' | 'reverification_pending' | 'reverification_failed' | 'revoked';

/** Encryption contexts bind each ciphertext to its column and row. */
export const identityCipherContext = {
  vault: (identityId: string) => `identity.vault:${identityId}`,
  externalUserReference: (identityId: string) => `identity.external_user_reference:${identityId}`,
};

/**
 * The status a client sees. An open re-verification makes it `reverification_pending`; a request whose
 * session was rejected on a path that did not settle it yet (e.g. attempts exhausted) already counts
 * as failed, so no reader ever sees a stale status.
 *
 * @example
 * identityStatus(row, { session_status: 'collecting', ... }) // 'reverification_pending'
 */
export function identityStatus(
  row: Pick<IdentityRow, 'status'>,
  unsettled: Pick<ReverificationWithSession, 'session_status'> | null,
): IdentityStatus {
  if (row.status === 'revoked') return 'revoked';
  if (unsettled) {
    if (!isTerminal(unsettled.session_status)) return 'reverification_pending';
    if (unsettled.session_status === 'rejected') return 'reverification_failed';
  }
  return row.status;
}

/**
 * The identity as the API shows it (API.md §6). Attributes are decrypted and, without
 * `identities:read_pii`, every personal value is masked (`"J***"`).
 */
export async function toIdentityObject(
  deps: Pick<AppDeps, 'cipher'>,
  row: IdentityRow,
  options: { status: IdentityStatus; revealPersonalData: boolean },
) {
  const vault = await deps.cipher.decryptJson<IdentityVaultRecord>(
    row.attributes_enc,
    identityCipherContext.vault(row.id),
  );
  const shown = options.revealPersonalData ? vault : maskDeep(vault);
  return {
    object: 'identity' as const,
    identity_id: row.id,
    environment: row.environment,
    status: options.status,
    flow: row.flow,
    tier: row.tier,
    external_user_reference: row.external_user_ref_enc
      ? await deps.cipher.decrypt(
          row.external_user_ref_enc,
          identityCipherContext.externalUserReference(row.id),
        )
      : null,
    verified_at: row.verified_at.toISOString(),
    latest_session_id: row.latest_session_id,
    attributes: shown.attributes,
    ...(shown.business ? { business: shown.business } : {}),
    biometric_reference: row.biometric_session_id !== null,
    personal_data_masked: !options.revealPersonalData,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type IdentityObject = Awaited<ReturnType<typeof toIdentityObject>>;
