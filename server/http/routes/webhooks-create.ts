import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import { commitWithAnswer } from '../idempotent-replay.ts';
import type { RouteKit } from '../route-kit.ts';
import { insertWebhook } from '../../store/webhooks.ts';
import { assertWebhookUrlAllowed } from '../../features/webhooks/check-webhook-url.ts';
import { webhookCipherContext } from '../../features/webhooks/signing-secrets.ts';
import { toWebhookObject } from '../../features/webhooks/webhook-object.ts';
import { generateWebhookSecret } from '../../features/webhooks/webhook-secret.ts';
import { CreateWebhookBody, WebhookWithSecretSchema } from './webhooks-schemas.ts';

export const createWebhookRoute = createRoute({
  operationId: 'createWebhook',
  method: 'post',
  path: '/v1/webhooks',
  tags: ['Webhooks'],
  summary: 'Register a webhook endpoint',
  description:
    'Returns the signing `secret` once. Events of the credential’s environment whose kind is listed (or all, with `["*"]`) are delivered, signed, at least once.',
  security: TENANT_SECURITY,
  request: {
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateWebhookBody } } },
  },
  responses: {
    201: {
      description: 'The endpoint, with its secret',
      content: { 'application/json': { schema: WebhookWithSecretSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'payload_too_large',
      'webhook_url_not_allowed',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
    ),
  },
});

export function registerCreateWebhook(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...createWebhookRoute, middleware: kit.tenant({ capability: 'webhooks:write', body: 'json' }) },
    async (c) => {
      const body = c.req.valid('json');
      const principal = c.get('principal');
      await assertWebhookUrlAllowed(deps, principal.environment, body.url);
      const id = deps.ids('wh');
      const secret = generateWebhookSecret();
      const now = deps.clock.now();
      const secret_enc = await deps.cipher.encrypt(secret, webhookCipherContext.secret(id));
      // The secret is shown once: a retry after a crash replays this answer, never a second endpoint.
      const answer = await commitWithAnswer(
        c,
        deps.db,
        201,
        (sql) =>
          insertWebhook(sql, {
            id,
            tenant_id: principal.tenantId,
            environment: principal.environment,
            url: body.url,
            events: body.events,
            description: body.description || null,
            secret_enc,
            created_at: now,
          }),
        (row) => ({ ...toWebhookObject(row, now), secret }),
      );
      return c.json(answer, 201);
    },
  );
}
