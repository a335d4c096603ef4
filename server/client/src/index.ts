/**
 * `@id-verify/node`: the tenant backend kit. A typed client for every endpoint an API key may call, and
 * webhook verification (timestamped, replays refused). Nothing but Node's own `fetch` and crypto.
 */
export {
  createIdVerifyClient,
  type EvidenceFile,
  type IdVerifyClient,
  type IdVerifyClientOptions,
} from './client.ts';
export { IdVerifyError, type Problem, type RetrySkipped } from './errors.ts';
export type { components, operations, paths } from './openapi-types.ts';
export type { ListPage, PagedList, PageQuery } from './pagination.ts';
export type { RetryPolicy } from './retry-policy.ts';
export type { RequestOptions } from './transport.ts';
export type {
  ApiErrorCode,
  IdVerifyErrorCode,
  WebhookEventOf,
  WebhookEventType,
} from './webhook-events.ts';
export {
  signTestWebhook,
  type SignTestWebhookOptions,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './webhooks.ts';
