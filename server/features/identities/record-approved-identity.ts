import type { AppDeps } from '../../app-deps.ts';
import type { ReviewEvidence } from '../../domain/review/index.ts';
import { TIERS, type Tier } from '../../domain/session-steps.ts';
import type { ReadDetails } from '../evidence/document-reading-details.ts';
import { documentNumberIndex as documentNumberIndexOf } from '../evidence/evidence-keys.ts';
import {
  findIdentityByExternalRefForUpdate,
  findIdentityForUpdate,
  type IdentityRow,
  insertIdentity,
  linkSessionToIdentity,
  updateIdentity,
} from '../../store/identities.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { sessionCipherContext } from '../sessions/session-object.ts';
import { hasDocumentData, type IdentityVaultRecord, vaultRecordFromEvidence } from './identity-attributes.ts';
import { recordIdentityEvent } from './identity-events.ts';
import { identityCipherContext } from './identity-object.ts';

function higherTier(a: Tier, b: Tier): Tier {
  return TIERS.indexOf(a) >= TIERS.indexOf(b) ? a : b;
}

/**
 * Vaults the person an approved session verified, in the approval's transaction (API.md §6): the first
 * approval per (tenant, environment, external_user_reference) creates the identity, later ones update
 * it; a re-verification session updates the identity it was opened for. Links the session to the
 * identity before the caller's transition, so `session.approved` carries `identity_id`.
 *
 * A session without document data (a biometric re-verification) refreshes the identity without touching
 * its attributes. The attributes come from what was read off the document when it was read
 * (`documentDetails`, from the review's one read of the evidence: nothing is read or decrypted again
 * here), else from what the end-user typed (see `vaultRecordFromEvidence`). An approval with liveness
 * enrols the session's selfie as the biometric reference.
 *
 * @example
 * const identity = await recordApprovedIdentity(tx, deps, session, evidence.review, evidence.documentDetails);
 */
export async function recordApprovedIdentity(
  tx: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock' | 'cipher'>,
  session: SessionRow,
  evidence: ReviewEvidence,
  documentDetails: ReadDetails | null,
): Promise<IdentityRow> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const now = deps.clock.now();
  const existing = session.identity_id
    ? await findIdentityForUpdate(tx, scope, session.identity_id)
    : session.external_user_ref_index
      ? await findIdentityByExternalRefForUpdate(tx, scope, session.external_user_ref_index)
      : null;
  const read = hasDocumentData(evidence) ? documentDetails : null;
  const record = vaultRecordFromEvidence(evidence, read);
  const documentNumber = record.attributes.document.number;
  // The same blind index as the sessions' details, so the duplicate look-up finds this identity.
  const documentNumberIndex = documentNumber
    ? await documentNumberIndexOf(deps.cipher, documentNumber)
    : null;
  const enrolsSelfie = evidence.liveness?.accepted === true;

  let identity: IdentityRow;
  if (existing === null) {
    const id = deps.ids('idn');
    const reference = session.external_user_ref_enc
      ? await deps.cipher.decrypt(
          session.external_user_ref_enc,
          sessionCipherContext.externalUserReference(session.id),
        )
      : null;
    identity = await insertIdentity(tx, {
      id,
      tenant_id: session.tenant_id,
      environment: session.environment,
      status: 'verified',
      flow: session.flow,
      tier: session.tier,
      external_user_ref_enc: reference
        ? await deps.cipher.encrypt(reference, identityCipherContext.externalUserReference(id))
        : null,
      external_user_ref_index: session.external_user_ref_index,
      attributes_enc: await deps.cipher.encryptJson(record, identityCipherContext.vault(id)),
      document_number_index: documentNumberIndex,
      biometric_session_id: enrolsSelfie ? session.id : null,
      latest_session_id: session.id,
      verified_at: now,
      created_at: now,
    });
  } else {
    const refreshed = hasDocumentData(evidence)
      ? {
          attributes_enc: await deps.cipher.encryptJson(
            mergeVault(
              await deps.cipher.decryptJson<IdentityVaultRecord>(
                existing.attributes_enc,
                identityCipherContext.vault(existing.id),
              ),
              record,
            ),
            identityCipherContext.vault(existing.id),
          ),
          document_number_index: documentNumberIndex,
        }
      : {};
    identity = await updateIdentity(
      tx,
      existing.id,
      {
        ...refreshed,
        status: existing.status === 'revoked' ? 'revoked' : 'verified',
        tier: higherTier(existing.tier, session.tier),
        latest_session_id: session.id,
        verified_at: now,
        ...(enrolsSelfie ? { biometric_session_id: session.id } : {}),
      },
      now,
    );
  }
  await linkSessionToIdentity(tx, session.id, identity.id);
  await recordIdentityEvent(tx, deps, existing === null ? 'identity.created' : 'identity.updated', {
    tenantId: session.tenant_id,
    environment: session.environment,
    identityId: identity.id,
    sessionId: session.id,
  });
  return identity;
}

/** New document data replaces the old; a business section is kept when the new session had none. */
function mergeVault(previous: IdentityVaultRecord, next: IdentityVaultRecord): IdentityVaultRecord {
  const business = next.business ?? previous.business;
  const { business: _business, ...document } = next;
  return business ? { ...document, business } : document;
}
