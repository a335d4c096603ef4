import { fromBase64, toBase64 } from '../../crypto/encoding.ts';
import { randomBytes } from '../../crypto/primitives.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A new endpoint secret: `whsec_` + base64 of 32 random bytes (API.md §8), the format Standard Webhooks
 * libraries accept as is.
 *
 * @example
 * generateWebhookSecret() // 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4D1/yCPLGvI='
 */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${toBase64(randomBytes(32))}`;
}

/**
 * The HMAC key of the Standard Webhooks signature: the base64-decoded part after `whsec_`. Null when the
 * string is not a `whsec_` secret.
 */
export function standardWebhooksKey(secret: string): Uint8Array<ArrayBuffer> | null {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return null;
  const key = fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
  return key && key.length > 0 ? key : null;
}
