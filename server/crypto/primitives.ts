import { toBase62, toHex, utf8 } from './encoding.ts';
import { nativeCrypto } from './native-crypto.ts';

/**
 * Web-standard with a Node fast path (see native-crypto.ts): this file runs in Node, in the MSW browser
 * mock and in workers alike, with the same results everywhere.
 */

/**
 * Small random values (ids, request ids, IVs, nonces) are cut from a 4 KB block drawn from the CSPRNG at
 * once, each byte handed out once: a `getRandomValues` call costs more than the bytes it makes, and a
 * request needs several (Node's randomUUID caches entropy the same way).
 */
const RANDOM_POOL_BYTES = 4096;
const POOLED_REQUEST_MAX = 64;
let randomPool = new Uint8Array(0);
let randomPoolOffset = 0;

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  if (length > POOLED_REQUEST_MAX) return crypto.getRandomValues(new Uint8Array(length));
  if (randomPoolOffset + length > randomPool.length) {
    randomPool = crypto.getRandomValues(new Uint8Array(RANDOM_POOL_BYTES));
    randomPoolOffset = 0;
  }
  const bytes = randomPool.slice(randomPoolOffset, randomPoolOffset + length);
  // Spent bytes are zeroed so the pool never holds a value that was already handed out.
  randomPool.fill(0, randomPoolOffset, randomPoolOffset + length);
  randomPoolOffset += length;
  return bytes;
}

/** A random base62 string carrying at least `bits` of entropy. */
export function randomBase62(bits: number): string {
  return toBase62(randomBytes(Math.ceil(bits / 8)));
}

export async function sha256(data: string | Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  // Node's one-shot `hash` (no Hash object) takes text as UTF-8 itself: no TextEncoder allocation.
  if (nativeCrypto) return new Uint8Array(nativeCrypto.hash('sha256', data, 'buffer'));
  const bytes = typeof data === 'string' ? utf8.encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  // Hashed on every API-key request: Node's one-shot hex digest skips a Hash object, a copy and an encode.
  if (nativeCrypto) return nativeCrypto.hash('sha256', data, 'hex');
  return toHex(await sha256(data));
}

/** An HMAC-SHA-256 key: a non-extractable CryptoKey for Web Crypto, and on Node a KeyObject. */
export interface HmacKey {
  web: CryptoKey;
  /** Made once: building a KeyObject from raw bytes on every call costs more than the HMAC itself. */
  native?: import('node:crypto').KeyObject;
}

export async function importHmacKey(secret: Uint8Array<ArrayBuffer>): Promise<HmacKey> {
  const web = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return nativeCrypto ? { web, native: nativeCrypto.createSecretKey(secret) } : { web };
}

export async function hmacSha256(
  key: HmacKey,
  data: string | Uint8Array<ArrayBuffer>,
  native = nativeCrypto,
): Promise<Uint8Array<ArrayBuffer>> {
  // Node's `update` takes text as UTF-8 itself, the same bytes TextEncoder would make, without allocating them.
  if (native && key.native)
    return new Uint8Array(native.createHmac('sha256', key.native).update(data).digest());
  const bytes = typeof data === 'string' ? utf8.encode(data) : data;
  return new Uint8Array(await crypto.subtle.sign('HMAC', key.web, bytes));
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

/**
 * `timingSafeEqual` for text, compared UTF-16 unit by unit: equal units are equal text (and equal UTF-8),
 * and nothing is encoded first, on every API-key request (issue #13). The time depends on the lengths only.
 */
export function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
