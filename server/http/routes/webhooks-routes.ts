import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import type { RouteKit } from '../route-kit.ts';
import { registerGetEvent } from './events-get.ts';
import { registerListEvents } from './events-list.ts';
import { registerCreateWebhook } from './webhooks-create.ts';
import { registerDeleteWebhook } from './webhooks-delete.ts';
import { registerListWebhookDeliveries } from './webhooks-deliveries-list.ts';
import { registerRetryWebhookDelivery } from './webhooks-deliveries-retry.ts';
import { registerGetWebhook } from './webhooks-get.ts';
import { registerListWebhooks } from './webhooks-list.ts';
import { registerRotateWebhookSecret } from './webhooks-rotate-secret.ts';
import { registerTestWebhook } from './webhooks-test.ts';
import { registerUpdateWebhook } from './webhooks-update.ts';

/** The webhook management and event operations (API.md §8), one file each. */
export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  registerCreateWebhook(app, kit);
  registerListWebhooks(app, kit);
  registerGetWebhook(app, kit);
  registerUpdateWebhook(app, kit);
  registerDeleteWebhook(app, kit);
  registerRotateWebhookSecret(app, kit);
  registerTestWebhook(app, kit);
  registerListWebhookDeliveries(app, kit);
  registerRetryWebhookDelivery(app, kit);
  registerListEvents(app, kit);
  registerGetEvent(app, kit);
}
