import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import type { RouteKit } from '../route-kit.ts';
import { findWebhook, updateWebhook } from '../../store/webhooks.ts';
import { webhookCipherContext } from '../../features/webhooks/signing-secrets.ts';
import { webhookMissing } from '../../features/webhooks/webhook-missing.ts';
import { toWebhookObject } from '../../features/webhooks/webhook-object.ts';
import { generateWebhookSecret } from '../../features/webhooks/webhook-secret.ts';
import { RotateSecretBody, WebhookIdParam, WebhookWithSecretSchema } from './webhooks-schemas.ts';

const DEFAULT_OVERLAP_SECONDS = 86_400;

export const rotateWebhookSecretRoute = createRoute({
  operationId: 'rotateWebhookSecret',
  method: 'post',
  path: '/v1/webhooks/{id}/rotate-secret',
  tags: ['Webhooks'],
  summary: 'Rotate the signing secret',
  description:
    'Returns the new `secret` once. For 24 h (or `previous_secret_expires_in`) deliveries carry signatures from both: `x-service-signature` (new) and `x-service-signature-previous` (old), and two `v1,` entries in `webhook-signature`.',
  security: TENANT_SECURITY,
  request: {
    params: WebhookIdParam,
    headers: IdempotencyKeyHeader,
    body: { required: false, content: { 'application/json': { schema: RotateSecretBody } } },
  },
  responses: {
    200: {
      description: 'The endpoint with its new secret',
      content: { 'application/json': { schema: WebhookWithSecretSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'resource_missing',
      'invalid_json',
      'invalid_parameter',
      'unknown_parameter',
    ),
  },
});

export function registerRotateWebhookSecret(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    {
      ...rotateWebhookSecretRoute,
      middleware: kit.tenant({ capability: 'webhooks:write', body: 'optional' }),
    },
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json') ?? {};
      const scope = c.get('principal');
      const now = deps.clock.now();
      const secret = generateWebhookSecret();
      // With its answer stored in the same transaction: a retry after a crash replays the new secret and
      // does not rotate again (which would make the secret the first attempt issued the previous one).
      const answer = await deps.db.transaction(async (tx) => {
        const current = (await findWebhook(tx, scope, id)) ?? webhookMissing(id);
        // The outgoing secret becomes the previous one; one older than that stops signing now.
        const outgoing = await deps.cipher.decrypt(current.secret_enc, webhookCipherContext.secret(id));
        const overlapSeconds = body.previous_secret_expires_in ?? DEFAULT_OVERLAP_SECONDS;
        const row = await updateWebhook(
          tx,
          scope,
          id,
          {
            secret_enc: await deps.cipher.encrypt(secret, webhookCipherContext.secret(id)),
            previous_secret_enc:
              overlapSeconds > 0
                ? await deps.cipher.encrypt(outgoing, webhookCipherContext.previousSecret(id))
                : null,
            previous_secret_expires_at:
              overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
          },
          now,
        );
        const rotated = { ...toWebhookObject(row ?? webhookMissing(id), now), secret };
        await answerInTransaction(c, tx, 200, rotated);
        return rotated;
      });
      return c.json(answer, 200);
    },
  );
}
