import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ENVIRONMENTS } from '../../domain/api-key-format.ts';
import { SESSION_STATUSES } from '../../domain/session-status.ts';
import { REVERIFICATION_STATUSES } from '../../features/reverification/reverification-status.ts';
import { type WebhookEventKind, WEBHOOK_EVENT_KINDS } from '../../features/webhooks/event-kinds.ts';
import type { AppEnv } from '../app-env.ts';

// The deliveries the server sends (API.md §8, docs/webhooks.md), in the OpenAPI document's `webhooks`
// section so generators can type them: one entry per event kind, its body a schema whose `event` names
// the kind. The bodies mirror what the outbox stores (features/sessions/session-events.ts,
// features/identities/identity-events.ts, routes/webhooks-test.ts): thin, ids and status only.

const SESSION_EVENT_KINDS = WEBHOOK_EVENT_KINDS.filter((kind) => kind.startsWith('session.')) as [
  Extract<WebhookEventKind, `session.${string}`>,
  ...Extract<WebhookEventKind, `session.${string}`>[],
];

/** The members every delivery carries. */
const envelope = {
  event_id: z.string().openapi({
    description: 'Unique per event, the same on every retry and equal to `webhook-id`: dedupe on it.',
    example: 'evt_0cXr4Kp8tB2mQw6Ys1VnJd',
  }),
  created_at: z.string().openapi({ description: 'When the event happened (ISO 8601).' }),
  environment: z.enum(ENVIRONMENTS),
};

export const SessionEventSchema = z
  .object({
    event: z.enum(SESSION_EVENT_KINDS),
    ...envelope,
    session_id: z.string(),
    identity_id: z.string().nullable().openapi({ description: 'Null until the session made an identity.' }),
    decision: z.string().nullable().openapi({ description: 'Null until the session is decided.' }),
    status: z.enum(SESSION_STATUSES).openapi({ description: 'The session status after the change.' }),
  })
  .openapi('SessionEvent', { description: 'A session changed status. Fetch the session for its result.' });

export const IdentityEventSchema = z
  .object({
    event: z.enum(['identity.created', 'identity.updated']),
    ...envelope,
    identity_id: z.string(),
    session_id: z.string().openapi({ description: 'The approved session that created or updated it.' }),
  })
  .openapi('IdentityEvent', { description: 'An approved session created or updated an identity.' });

export const ReverificationCompletedEventSchema = z
  .object({
    event: z.literal('reverification.completed'),
    ...envelope,
    identity_id: z.string(),
    session_id: z.string(),
    reverification_request_id: z.string(),
    status: z.enum(REVERIFICATION_STATUSES).openapi({ description: 'The request’s final status.' }),
    decision: z.string().nullable(),
  })
  .openapi('ReverificationCompletedEvent', { description: 'A re-verification request reached its end.' });

export const WebhookTestEventSchema = z
  .object({
    event: z.literal('webhook.test'),
    ...envelope,
    webhook_id: z.string().openapi({ description: 'The endpoint the test was sent to.' }),
  })
  .openapi('WebhookTestEvent', { description: 'Sent by `POST /v1/webhooks/{id}/test` only.' });

type PayloadSchema =
  | typeof SessionEventSchema
  | typeof IdentityEventSchema
  | typeof ReverificationCompletedEventSchema
  | typeof WebhookTestEventSchema;

function payloadOf(kind: WebhookEventKind): PayloadSchema {
  if (kind.startsWith('session.')) return SessionEventSchema;
  if (kind === 'identity.created' || kind === 'identity.updated') return IdentityEventSchema;
  if (kind === 'reverification.completed') return ReverificationCompletedEventSchema;
  return WebhookTestEventSchema;
}

const DeliveryHeaders = z.object({
  'webhook-id': z.string().openapi({ description: 'The event id (`event_id`).' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds when the delivery was signed.' }),
});

/** Puts every event kind in the document's `webhooks` section; nothing is served. */
export function registerWebhookEventPayloads(app: OpenAPIHono<AppEnv>): void {
  // What the receiver checks instead of a credential: the Standard Webhooks signature.
  app.openAPIRegistry.registerComponent('securitySchemes', 'WebhookSignature', {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` entries over `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the endpoint secret (base64 after `whsec_`), one per active secret.',
  });
  for (const kind of WEBHOOK_EVENT_KINDS) {
    app.openAPIRegistry.registerWebhook(
      createRoute({
        operationId: `${kind.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Webhook`,
        method: 'post',
        path: kind,
        tags: ['Webhooks'],
        summary: `The \`${kind}\` delivery`,
        security: [{ WebhookSignature: [] }],
        description:
          'Sent to each endpoint subscribed to this kind (or `*`). Verify the signature on the raw body before parsing (docs/webhooks.md).',
        request: {
          headers: DeliveryHeaders,
          body: { required: true, content: { 'application/json': { schema: payloadOf(kind) } } },
        },
        responses: {
          200: {
            description: 'Any 2xx acknowledges the delivery; anything else but 410 is retried on schedule.',
          },
          400: { description: 'Answer this when the signature does not verify.' },
          410: { description: 'Disables the endpoint: no more deliveries until it is re-enabled.' },
        },
      }),
    );
  }
}
