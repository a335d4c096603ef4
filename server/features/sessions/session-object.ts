import type { AppDeps } from '../../app-deps.ts';
import type { SessionRow } from '../../store/sessions.ts';
import { deriveVerifyToken, verifyUrlOf } from './verify-token.ts';

export type Metadata = Record<string, string | number | boolean | null>;

/** The encryption contexts bind each ciphertext to its column and row. */
export const sessionCipherContext = {
  externalUserReference: (sessionId: string) => `session.external_user_reference:${sessionId}`,
  metadata: (sessionId: string) => `session.metadata:${sessionId}`,
};

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/**
 * What the caller already holds in plain text because it has just written the row (a create): the token
 * it derived and the personal fields it encrypted. Passing them skips deriving and decrypting again what
 * this very request produced; nothing read from the database is ever taken on trust this way.
 */
export interface KnownPlaintext {
  verifyToken: string;
  externalUserReference: string | null;
  metadata: Metadata | null;
}

/**
 * The session as the API shows it (seed 2.2 plus API.md §4). Decrypts the personal fields; `verify_url`
 * appears only while the end-user can still act.
 */
export async function toSessionObject(
  deps: Pick<AppDeps, 'cipher' | 'config'>,
  row: SessionRow,
  known?: KnownPlaintext,
) {
  const open = row.status === 'created' || row.status === 'collecting';
  const verifyUrl =
    open && row.verify_token_nonce
      ? verifyUrlOf(
          deps.config.verifyBaseUrl,
          known?.verifyToken ?? (await deriveVerifyToken(deps.cipher, row.id, row.verify_token_nonce)),
        )
      : undefined;
  return {
    object: 'session' as const,
    session_id: row.id,
    ...(verifyUrl === undefined ? {} : { verify_url: verifyUrl }),
    status: row.status,
    required_steps: row.required_steps,
    expires_at: row.expires_at.toISOString(),
    environment: row.environment,
    country: row.country,
    flow: row.flow,
    tier: row.tier,
    external_user_reference: known
      ? known.externalUserReference
      : row.external_user_ref_enc
        ? await deps.cipher.decrypt(
            row.external_user_ref_enc,
            sessionCipherContext.externalUserReference(row.id),
          )
        : null,
    redirect_url: row.redirect_url,
    metadata: known
      ? (known.metadata ?? {})
      : row.metadata_enc
        ? await deps.cipher.decryptJson<Metadata>(row.metadata_enc, sessionCipherContext.metadata(row.id))
        : {},
    steps: row.steps,
    identity_id: row.identity_id,
    decision: row.decision,
    last_error: row.last_error,
    reverification_request_id: row.reverification_request_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    submitted_at: iso(row.submitted_at),
    decided_at: iso(row.decided_at),
  };
}

export type SessionObject = Awaited<ReturnType<typeof toSessionObject>>;
