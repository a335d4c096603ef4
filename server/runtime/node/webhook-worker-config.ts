import { z } from 'zod';
import type { WebhookWorkerOptions } from '../../workers/webhook-delivery-worker.ts';
import { ConfigError } from './config.ts';

/** Documented like config.ts's EnvSchema: docs/configuration.md is generated from it. */
export const WorkerEnv = z.object({
  IDV_WEBHOOK_WORKER: z
    .enum(['on', 'off'], { message: 'must be `on` (default) or `off` (API only; run the worker elsewhere)' })
    .default('on')
    .describe('`off`: this process delivers no webhooks (run the delivery in another process).'),
  IDV_WEBHOOK_POLL_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(250)
    .describe('How often an idle webhook worker looks for due deliveries, in milliseconds.'),
  IDV_WEBHOOK_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .default(16)
    .describe('Deliveries one webhook worker sends at once.'),
});

/**
 * The webhook worker's settings from the environment, read once at start-up: `false` when this instance
 * must not deliver (`IDV_WEBHOOK_WORKER=off`, e.g. API-only replicas beside a dedicated worker).
 *
 * @example
 * await startServer(deps, { port, host, webhookWorker: webhookWorkerOptions(process.env) });
 */
export function webhookWorkerOptions(env: Record<string, string | undefined>): WebhookWorkerOptions | false {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) => name.startsWith('IDV_WEBHOOK_') && value !== undefined && value !== '',
    ),
  );
  const parsed = WorkerEnv.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (parsed.data.IDV_WEBHOOK_WORKER === 'off') return false;
  return {
    pollIntervalMs: parsed.data.IDV_WEBHOOK_POLL_MS,
    concurrency: parsed.data.IDV_WEBHOOK_CONCURRENCY,
  };
}
