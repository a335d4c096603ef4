/**
 * Public helpers for receivers of id-verify webhooks (`import … from 'id-verify/webhooks'`): verify a
 * delivery, and sign test payloads for your own tests. Web-standard (Web Crypto): Node ≥ 20, Deno, Bun,
 * Cloudflare Workers and browsers.
 */
export {
  type SignTestWebhookInput,
  signTestWebhook,
  type VerifyWebhookOptions,
  verifyServiceSignature,
  verifyServiceSignatureWithoutReplayProtection,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './receiver.ts';
export { serviceSignature, standardSignature } from './signature.ts';
export { generateWebhookSecret } from './webhook-secret.ts';
