// A type test, checked by `tsc -p tsconfig.json` (the suite's type-check step), never run: each
// `@ts-expect-error` below must stay an error. If narrowing on `event` stopped giving the payload (say,
// the union collapsed to one loose object), or the error codes widened to `string`, the directive would
// be unused and tsc would fail with TS2578.
import type {
  ApiErrorCode,
  IdVerifyError,
  WebhookEvent,
  WebhookEventOf,
  WebhookEventType,
} from '../../../server/client/src/index.ts';

export function handle(event: WebhookEvent): string {
  // @ts-expect-error: a misspelt kind is not a kind the server sends.
  if (event.event === 'session.aproved') return 'never';

  if (event.event === 'session.approved') {
    const status: 'approved' | 'rejected' | 'created' | 'collecting' | 'processing' | string = event.status;
    const identity: string | null = event.identity_id;
    // @ts-expect-error: a member of another kind's payload.
    return `${status} ${identity} ${event.webhook_id}`;
  }
  if (event.event === 'webhook.test') {
    const webhookId: string = event.webhook_id;
    // @ts-expect-error: a test delivery names no session.
    return `${webhookId} ${event.session_id}`;
  }
  if (event.event === 'reverification.completed') {
    const requestId: string = event.reverification_request_id;
    return requestId;
  }
  if (event.event === 'identity.created' || event.event === 'identity.updated') {
    const identity: string = event.identity_id;
    // @ts-expect-error: identity events carry no decision.
    return `${identity} ${event.decision}`;
  }
  return event.session_id;
}

/** Every kind is handled: a kind added to the document without a case here fails the `never`. */
export function describeKind(type: WebhookEventType): string {
  switch (type) {
    case 'session.created':
    case 'session.collecting':
    case 'session.processing':
    case 'session.approved':
    case 'session.rejected':
    case 'session.review_required':
    case 'session.expired':
    case 'session.cancelled':
    case 'session.resubmission_requested':
      return 'session';
    case 'identity.created':
    case 'identity.updated':
      return 'identity';
    case 'reverification.completed':
      return 'reverification';
    case 'webhook.test':
      return 'test';
    default: {
      const unhandled: never = type;
      return unhandled;
    }
  }
}

export const testDelivery: WebhookEventOf<'webhook.test'>['webhook_id'] = 'wh_1';

// @ts-expect-error: WebhookEventOf takes only the kinds the server sends.
export type Misspelt = WebhookEventOf<'session.aproved'>;

export function isMissing(error: IdVerifyError): boolean {
  const known: ApiErrorCode = 'resource_missing';
  // @ts-expect-error: not a code of the error code registry.
  if (error.code === 'not_a_code') return false;
  return error.code === known || error.code === 'network_error' || error.code === 'http_502';
}
