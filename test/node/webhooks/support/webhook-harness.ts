import {
  createWebhookWorker,
  type WebhookWorker,
} from '../../../../server/workers/webhook-delivery-worker.ts';
import type { WebhookSender } from '../../../../server/features/webhooks/webhook-sender.ts';
import { json, type TestHarness } from '../../support/test-app.ts';

/** A worker over the harness's deps (fake clock) with jitter pinned to zero unless `random` is given. */
export function workerFor(
  h: TestHarness,
  options: { sender?: WebhookSender; random?: () => number } = {},
): WebhookWorker {
  return createWebhookWorker(
    { ...h.deps, ...(options.sender ? { webhookSender: options.sender } : {}) },
    { random: options.random ?? (() => 0.5) },
  );
}

/** Creates an endpoint through the API and returns its id and secret. */
export async function createWebhook(
  h: TestHarness,
  body: { url: string; events?: string[]; description?: string },
  key = h.tenant.sandboxKey,
): Promise<{ id: string; secret: string; body: Record<string, any> }> {
  const response = await h.call('POST', '/v1/webhooks', { key, body: { events: ['*'], ...body } });
  const created = await json(response);
  if (response.status !== 201)
    throw new Error(`create webhook: ${response.status} ${JSON.stringify(created)}`);
  return { id: created['webhook_id'], secret: created['secret'], body: created };
}

/** Creates a session through the API (its `session.created` event lands in the outbox). */
export async function createSession(h: TestHarness, key = h.tenant.sandboxKey): Promise<string> {
  const response = await h.call('POST', '/v1/sessions', {
    key,
    body: { country: 'DEU', flow: 'user', tier: 'tier1' },
  });
  const created = await json(response);
  if (response.status !== 201) throw new Error(`create session: ${response.status}`);
  return created['session_id'];
}

/** The delivery log of an endpoint through the API. */
export async function deliveriesOf(
  h: TestHarness,
  webhookId: string,
  key = h.tenant.sandboxKey,
): Promise<Record<string, any>[]> {
  const response = await h.call('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`, { key });
  if (response.status !== 200) throw new Error(`deliveries: ${response.status}`);
  return (await json(response))['data'];
}
