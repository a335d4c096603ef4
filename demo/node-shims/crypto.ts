/**
 * `node:crypto` for the offline demo's page: what `@id-verify/node` (server/client/src) imports, so the
 * shop backend's own code, webhook check included, runs unchanged behind the Service Worker. Vite maps
 * `node:crypto` here in demo/vite.config.ts (offline only; the real server runs it on Node's crypto).
 */
import { BrowserBuffer } from './buffer.ts';
import { hmacSha256 } from './sha256.ts';

const encoder = new TextEncoder();

const bytes = (value: string | Uint8Array) => (typeof value === 'string' ? encoder.encode(value) : value);

/** `createHmac('sha256', key).update(data).digest(encoding?)`: SHA-256 is all the client uses. */
export function createHmac(algorithm: string, key: string | Uint8Array) {
  if (algorithm !== 'sha256') throw new Error(`the offline demo's crypto has sha256 only, not ${algorithm}`);
  const parts: Uint8Array[] = [];
  const hmac = {
    update(data: string | Uint8Array) {
      parts.push(bytes(data));
      return hmac;
    },
    digest(encoding?: 'hex' | 'base64') {
      const message = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let offset = 0;
      for (const part of parts) {
        message.set(part, offset);
        offset += part.length;
      }
      const mac = new BrowserBuffer(hmacSha256(bytes(key), message));
      return encoding ? mac.toString(encoding) : mac;
    },
  };
  return hmac;
}

/** Compares every byte whatever the first difference, as Node's does; throws on different lengths. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length');
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

export const randomUUID = (): string => crypto.randomUUID();
