import { toBase62, toHex, utf8 } from './encoding.ts';

/** Web Crypto only: this file runs in Node, in the MSW browser mock and in workers alike. */

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** A random base62 string carrying at least `bits` of entropy. */
export function randomBase62(bits: number): string {
  return toBase62(randomBytes(Math.ceil(bits / 8)));
}

export async function sha256(data: string | Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = typeof data === 'string' ? utf8.encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await sha256(data));
}

export async function importHmacKey(secret: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

export async function hmacSha256(
  key: CryptoKey,
  data: string | Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = typeof data === 'string' ? utf8.encode(data) : data;
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, bytes));
}

/**
 * Compares two byte strings in time that depends only on their length, so an attacker cannot learn
 * how many leading bytes of a guessed secret were right.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

export function timingSafeEqualText(a: string, b: string): boolean {
  return timingSafeEqual(utf8.encode(a), utf8.encode(b));
}
