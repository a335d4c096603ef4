import type { FieldCipher } from '../../crypto/field-cipher.ts';
import { randomBytes } from '../../crypto/primitives.ts';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/O or 1/I/L: codes are read off paper. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 10 characters of a 31-letter alphabet: about 49 bits each, far beyond guessing under the rate limit. */
const CODE_LENGTH = 10;

/** Ten new codes as the user sees them: `XXXXX-XXXXX`. */
export function generateRecoveryCodes(): string[] {
  const codes: string[] = [];
  for (let n = 0; n < RECOVERY_CODE_COUNT; n++) {
    const bytes = randomBytes(CODE_LENGTH * 2);
    let code = '';
    // Rejection sampling keeps every letter equally likely (256 is not a multiple of 31).
    for (const byte of bytes) {
      if (byte >= 248) continue;
      code += ALPHABET[byte % ALPHABET.length];
      if (code.length === CODE_LENGTH) break;
    }
    if (code.length < CODE_LENGTH) {
      n--;
      continue;
    }
    codes.push(`${code.slice(0, 5)}-${code.slice(5)}`);
  }
  return codes;
}

/** What a typed code is compared as: upper case, no spaces or dashes. */
export function normaliseRecoveryCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * The stored form of a code: a keyed digest (the field cipher's blind index) bound to its user, so a
 * database dump alone cannot be used to test guesses offline and one user's code means nothing for another.
 */
export function recoveryCodeDigest(cipher: FieldCipher, userId: string, code: string): Promise<string> {
  return cipher.blindIndex(`${userId}:${normaliseRecoveryCode(code)}`, 'recovery_code');
}
