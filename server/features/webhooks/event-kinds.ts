/** Every event kind an endpoint can subscribe to (seed §6 and API.md §8); `*` means all of them. */
export const WEBHOOK_EVENT_KINDS = [
  'session.created',
  'session.collecting',
  'session.processing',
  'session.approved',
  'session.rejected',
  'session.review_required',
  'session.expired',
  'session.cancelled',
  'session.resubmission_requested',
  'identity.created',
  'identity.updated',
  'reverification.completed',
  'webhook.test',
] as const;

export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

export const ALL_EVENTS = '*';

export function isWebhookEventKind(value: string): value is WebhookEventKind {
  return (WEBHOOK_EVENT_KINDS as readonly string[]).includes(value);
}
