import { randomBytes } from '../../crypto/primitives.ts';

/**
 * TOTP (RFC 6238) on Web Crypto: HMAC-SHA-1, 6 digits, 30-second steps, the parameters every
 * authenticator app supports. Written here rather than taken from a package because the server's code is
 * web-standard (it also runs in the browser mock) and the algorithm is twenty lines; it is tested against
 * the RFC's own test vectors (test/node/console/totp.test.ts).
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Codes one step either side of now are accepted: a phone clock a little off, a code typed at the edge. */
export const TOTP_WINDOW_STEPS = 1;
/** 160 bits, the HMAC-SHA-1 block-size recommendation of RFC 4226 §4. */
const SECRET_BYTES = 20;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, how authenticator apps take a secret. */
export function toBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function fromBase32(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out = new Uint8Array(Math.floor((clean.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of clean) {
    const digit = BASE32_ALPHABET.indexOf(char);
    if (digit < 0) throw new Error('not base32');
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      out[index++] = (value >>> (bits - 8)) & 255;
      bits -= 8;
    }
  }
  return out;
}

/** A new random secret, base32. */
export function generateTotpSecret(): string {
  return toBase32(randomBytes(SECRET_BYTES));
}

/** The step a moment falls in. */
export function totpStepAt(time: Date): number {
  return Math.floor(time.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of one step (RFC 4226 §5.3 dynamic truncation), zero-padded. */
export async function totpCode(
  secret: Uint8Array<ArrayBuffer>,
  step: number,
  digits = TOTP_DIGITS,
  hash: 'SHA-1' | 'SHA-256' | 'SHA-512' = 'SHA-1',
): Promise<string> {
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(step));
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, counter));
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary =
    (((mac[offset] as number) & 0x7f) << 24) |
    ((mac[offset + 1] as number) << 16) |
    ((mac[offset + 2] as number) << 8) |
    (mac[offset + 3] as number);
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/**
 * The step whose code `code` is, within the window around `now`, or null. Every candidate is computed and
 * compared so the time taken does not say which step matched.
 */
export async function matchTotpStep(secretBase32: string, code: string, now: Date): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const secret = fromBase32(secretBase32);
  const current = totpStepAt(now);
  let matched: number | null = null;
  for (let offset = -TOTP_WINDOW_STEPS; offset <= TOTP_WINDOW_STEPS; offset++) {
    const step = current + offset;
    const expected = await totpCode(secret, step);
    let difference = 0;
    for (let i = 0; i < TOTP_DIGITS; i++) difference |= expected.charCodeAt(i) ^ code.charCodeAt(i);
    if (difference === 0 && matched === null) matched = step;
  }
  return matched;
}

/**
 * The `otpauth://` URI an authenticator app scans (the Key Uri Format that Google Authenticator defined
 * and every app follows): issuer and account label, the secret, and the parameters spelled out.
 */
export function otpauthUri(secretBase32: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
