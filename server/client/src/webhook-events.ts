import type { components, webhooks } from './openapi-types.ts';

// Typed from the OpenAPI document's `webhooks` section and its `ErrorCode` schema
// (openapi-types.ts, generated): a kind or a code the server adds appears here on the next generation.

/** Every event kind the server delivers: `session.approved`, `identity.updated`, `webhook.test`, … */
export type WebhookEventType = keyof webhooks;

type DeliveryBody<Type extends WebhookEventType> =
  webhooks[Type]['post']['requestBody']['content']['application/json'];

/**
 * A delivered event (API.md §8): thin, ids and status only, never personal data; fetch what you need
 * with the client. A union discriminated by `event`: narrowing on it gives that kind's payload.
 * Dedupe on `event_id`. A newer server may send kinds this version does not know: end a `switch` on
 * `event` with a `default` that acknowledges and ignores them.
 *
 * @example
 * if (event.event === 'reverification.completed') console.log(event.reverification_request_id);
 */
export type WebhookEvent = {
  [Type in WebhookEventType]: DeliveryBody<Type> & { event: Type };
}[WebhookEventType];

/** The payload of one kind: `WebhookEventOf<'webhook.test'>['webhook_id']`. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<WebhookEvent, { event: Type }>;

/** Every stable error code the API answers with (its error code registry): branch on these. */
export type ApiErrorCode = components['schemas']['ErrorCode'];

/**
 * `IdVerifyError.code`: the API's code, or the client's own when the answer had none: `network_error`
 * (no answer at all) or `http_<status>` (a body that was not a problem, from a proxy say).
 */
export type IdVerifyErrorCode = ApiErrorCode | 'network_error' | `http_${number}`;
