import { API_KEY_PART_LENGTHS, type Environment, formatApiKey } from '../../domain/api-key-format.ts';
import { toBase62 } from '../../crypto/encoding.ts';
import { randomBytes, sha256Hex } from '../../crypto/primitives.ts';

function randomBase62Chars(length: number): string {
  // Draw more bits than needed, then cut: the alphabet stays uniform enough for 22 chars of secret.
  return toBase62(randomBytes(Math.ceil((length * 6) / 8) + 4)).slice(-length);
}

export interface IssuedApiKey {
  secret: string;
  keyId: string;
  secretHash: string;
  last4: string;
}

/**
 * A new key: the full secret is returned once to the caller; only its SHA-256 is stored. A fast hash is
 * right here (unlike passwords): the secret has 130 random bits, so there is nothing to brute-force.
 */
export async function issueApiKey(environment: Environment): Promise<IssuedApiKey> {
  const keyId = randomBase62Chars(API_KEY_PART_LENGTHS.keyId);
  const secret = formatApiKey(environment, keyId, randomBase62Chars(API_KEY_PART_LENGTHS.secret));
  return { secret, keyId, secretHash: await hashApiKey(secret), last4: secret.slice(-4) };
}

export function hashApiKey(secret: string): Promise<string> {
  return sha256Hex(secret);
}
