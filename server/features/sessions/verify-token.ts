import type { FieldCipher } from '../../crypto/field-cipher.ts';
import { randomBase62, sha256Hex } from '../../crypto/primitives.ts';

const TOKEN_BITS = 160;

/**
 * Verify tokens are derived, not stored: token = HMAC(master-derived key, session id + nonce). The database
 * keeps only the nonce and SHA-256 of the token, so a database leak alone reveals no working link, while
 * the server can still show the current `verify_url` on every read. A new nonce invalidates the old link.
 */
export async function deriveVerifyToken(
  cipher: FieldCipher,
  sessionId: string,
  nonce: string,
): Promise<string> {
  return cipher.derivedSecret('verify-token', `${sessionId}:${nonce}`, TOKEN_BITS);
}

export async function issueVerifyToken(
  cipher: FieldCipher,
  sessionId: string,
): Promise<{ token: string; nonce: string; hash: string }> {
  const nonce = randomBase62(96);
  const token = await deriveVerifyToken(cipher, sessionId, nonce);
  return { token, nonce, hash: await hashVerifyToken(token) };
}

export function hashVerifyToken(token: string): Promise<string> {
  return sha256Hex(token);
}

export function verifyUrlOf(verifyBaseUrl: string, token: string): string {
  return `${verifyBaseUrl}/verify/${token}`;
}
