import { z } from '@hono/zod-openapi';
import { ENVIRONMENTS } from '../../domain/api-key-format.ts';
import { ALL_EVENTS, isWebhookEventKind, WEBHOOK_EVENT_KINDS } from '../../features/webhooks/event-kinds.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../../features/webhooks/url-policy.ts';
import { isHttpUrl } from './schemas/session-schemas.ts';

const idParam = (example: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example });

export const WebhookIdParam = z.object({ id: idParam('wh_5MZq0jYb1rT8xWc2Lk9sVp') });

export const DeliveryParams = z.object({
  id: idParam('wh_5MZq0jYb1rT8xWc2Lk9sVp'),
  delivery_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'delivery_id', in: 'path' }, example: 'dlv_2bQk7Vd0sP4nXe1Rj8TcLm' }),
});

export const EventIdParam = z.object({ id: idParam('evt_0cXr4Kp8tB2mQw6Ys1VnJd') });

export const WebhookUrl = z
  .string()
  .max(MAX_WEBHOOK_URL_LENGTH)
  .refine(isHttpUrl, 'must be an absolute http(s) URL')
  .openapi({
    example: 'https://tenant.example/webhooks/id-verify',
    description: 'Production endpoints need https and a public address; sandbox may use http and loopback.',
  });

export const WebhookEvents = z
  .array(z.string().max(64))
  .min(1)
  .max(WEBHOOK_EVENT_KINDS.length)
  .superRefine((kinds, context) => {
    kinds.forEach((kind, index) => {
      if (kind !== ALL_EVENTS && !isWebhookEventKind(kind)) {
        context.addIssue({
          code: 'custom',
          path: [index],
          message: `\`${kind}\` is not an event kind; use \`*\` or one of ${WEBHOOK_EVENT_KINDS.join(', ')}`,
        });
      }
    });
    if (kinds.includes(ALL_EVENTS) && kinds.length > 1) {
      context.addIssue({ code: 'custom', message: '`*` subscribes to everything: send it alone' });
    }
    if (new Set(kinds).size !== kinds.length)
      context.addIssue({ code: 'custom', message: 'lists a kind twice' });
  })
  .openapi({ example: ['session.approved', 'session.rejected'], description: '`["*"]` subscribes to all.' });

const Description = z.string().trim().max(500).openapi({ example: 'Production backend' });

export const CreateWebhookBody = z
  .strictObject({ url: WebhookUrl, events: WebhookEvents, description: Description.optional() })
  .openapi('CreateWebhookRequest');

export const UpdateWebhookBody = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: WebhookEvents.optional(),
    description: Description.nullable().optional(),
    status: z
      .enum(['active', 'disabled'])
      .optional()
      .openapi({ description: '`active` re-enables an endpoint disabled by hand or after a 410.' }),
  })
  .openapi('UpdateWebhookRequest');

export const RotateSecretBody = z
  .strictObject({
    previous_secret_expires_in: z.number().int().min(0).max(86_400).optional().openapi({
      description:
        'Seconds the old secret keeps signing; default 86400 (24 h). 0 ends it now (a leaked secret).',
    }),
  })
  .openapi('RotateWebhookSecretRequest');

export const WebhookSchema = z
  .object({
    object: z.literal('webhook'),
    webhook_id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    status: z.enum(['active', 'disabled']),
    environment: z.enum(ENVIRONMENTS),
    description: z.string().nullable(),
    disabled_reason: z
      .string()
      .nullable()
      .openapi({ description: '`endpoint_gone` when a 410 disabled it; null otherwise.' }),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .openapi({ description: 'Until then the previous secret signs too (after a rotation).' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Webhook');

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({
    description: '`whsec_` + base64 of 32 random bytes. Shown only in this response: store it now.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4D1/yCPLGvI=',
  }),
}).openapi('WebhookWithSecret');

export const DeletedWebhookSchema = z
  .object({ object: z.literal('webhook'), webhook_id: z.string(), deleted: z.literal(true) })
  .openapi('DeletedWebhook');

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const AttemptSchema = z
  .object({
    attempt: z.number().int(),
    status: z.enum(['in_flight', 'succeeded', 'failed', 'interrupted']),
    response_status: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    error_class: z.string().nullable().openapi({
      description:
        'redirect, http_error, endpoint_gone, timeout, connection_refused, dns_failure, address_not_allowed, tls_error, network_error, interrupted',
    }),
    started_at: z.string(),
  })
  .openapi('WebhookAttempt');

export const DeliverySchema = z
  .object({
    object: z.literal('webhook_delivery'),
    delivery_id: z.string(),
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    last_response_status: z.number().int().nullable(),
    last_error_class: z.string().nullable(),
    attempts: z.array(AttemptSchema),
    created_at: z.string(),
  })
  .openapi('WebhookDelivery');

export const EventSchema = z
  .object({
    object: z.literal('event'),
    event_id: z.string(),
    type: z.string(),
    environment: z.enum(ENVIRONMENTS),
    session_id: z.string().nullable(),
    identity_id: z.string().nullable(),
    created_at: z.string(),
    payload: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'Exactly what deliveries carry: thin, ids and status only.' }),
  })
  .openapi('Event');
