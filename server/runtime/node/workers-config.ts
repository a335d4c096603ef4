import { z } from 'zod';
import type { BackgroundWorkerSelection } from '../../workers/background-workers.ts';
import type { WebhookWorkerOptions } from '../../workers/webhook-delivery-worker.ts';
import { ConfigError } from './config.ts';
import { webhookWorkerOptions } from './webhook-worker-config.ts';

const onOff = (what: string, description: string) =>
  z
    .enum(['on', 'off'], { message: `must be on (default) or off (${what})` })
    .default('on')
    .describe(description);

/** Documented like config.ts's EnvSchema: docs/configuration.md is generated from it. */
export const WorkersEnv = z.object({
  IDV_WORKERS: onOff(
    'this API process runs no background work; run `npm run worker` beside it',
    '`off`: this API process (`npm start`) runs no background work, whatever the switches below say; run `npm run worker` beside it. The worker process ignores it.',
  ),
  IDV_REVIEW_WORKER: onOff(
    'no automated review in this process',
    '`off`: no automated review in this process.',
  ),
  IDV_SWEEPERS: onOff(
    'no session expiry and evidence retention sweeps in this process',
    '`off`: no session expiry and evidence retention sweeps in this process.',
  ),
});

/**
 * The background workers of this process, from the environment, read once at start-up. In the API
 * process (`npm start`), `IDV_WORKERS=off` turns every one of them off, whatever the per-worker switches
 * say, so API-only replicas need one variable. The worker-only process (`npm run worker`) ignores
 * `IDV_WORKERS`, since one environment is often shared by both, and refuses to start with nothing to do.
 *
 * @example
 * const workers = loadWorkersConfig(process.env, 'api'); // { webhooks: {…}, review: true, sweepers: true }
 */
export function loadWorkersConfig(
  env: Record<string, string | undefined>,
  process: 'api' | 'worker',
): BackgroundWorkerSelection {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) => name in WorkersEnv.shape && value !== undefined && value !== '',
    ),
  );
  const parsed = WorkersEnv.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  let webhooks: WebhookWorkerOptions | false = false;
  try {
    webhooks = webhookWorkerOptions(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.message.split('\n').slice(1));
  }
  if (!parsed.success || problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  if (process === 'api' && parsed.data.IDV_WORKERS === 'off') {
    return { webhooks: false, review: false, sweepers: false };
  }
  const config: BackgroundWorkerSelection = {
    webhooks,
    review: parsed.data.IDV_REVIEW_WORKER === 'on',
    sweepers: parsed.data.IDV_SWEEPERS === 'on',
  };
  if (process === 'worker' && !config.webhooks && !config.review && !config.sweepers) {
    throw new ConfigError(
      'Invalid configuration:\n  IDV_WEBHOOK_WORKER, IDV_REVIEW_WORKER, IDV_SWEEPERS: all off, so a worker process has nothing to do',
    );
  }
  return config;
}

/** The names of the loops that run, for the start-up log line: e.g. `['webhooks', 'review']`. */
export function runningWorkers(config: BackgroundWorkerSelection): string[] {
  return [
    ...(config.webhooks ? ['webhooks'] : []),
    ...(config.review ? ['review'] : []),
    ...(config.sweepers ? ['sweepers'] : []),
  ];
}
