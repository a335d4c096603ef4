import { randomBase62, sha256Hex } from '../../crypto/primitives.ts';

/** How long an invitation stays open; an admin can issue a fresh one after (POST /v1/users/{id}/invitation). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The prefix makes a leaked invitation recognisable to secret scanners, like `sk_` keys and `whsec_` secrets. */
const INVITATION_PREFIX = 'inv_';

/**
 * A new invitation token (128 random bits) and the hash the database keeps instead of it: like every bearer
 * secret of the API it is shown once and never stored in clear.
 *
 * @example
 * const { token, tokenHash } = await issueInvitationToken(); // token: 'inv_…' for the invitee only
 */
export async function issueInvitationToken(): Promise<{ token: string; tokenHash: string }> {
  const token = `${INVITATION_PREFIX}${randomBase62(128)}`;
  return { token, tokenHash: await hashInvitationToken(token) };
}

/** What an invitation token is looked up by. A plain SHA-256 suffices: the token has 128 random bits. */
export function hashInvitationToken(token: string): Promise<string> {
  return sha256Hex(token);
}
