import type { AppDeps } from '../server/app-deps.ts';
import { createRetentionSweeper } from '../server/workers/retention-sweeper.ts';
import { createReviewWorker } from '../server/workers/review-worker.ts';
import { createExpirySweeper } from '../server/workers/expiry-sweeper.ts';
import { createWebhookWorker } from '../server/workers/webhook-delivery-worker.ts';

export interface MockBackgroundOptions {
  /** How often each worker looks for work when idle (ms, default 100): a mock should feel instant. */
  pollIntervalMs?: number;
}

/** The server's own background workers (review, webhook delivery, expiry, retention), on timers, for the mock. */
export interface MockBackground {
  start(): void;
  stop(): Promise<void>;
  /**
   * Runs review and delivery rounds until neither finds work: after it resolves, every submitted session
   * is decided and every resulting webhook sent (or scheduled for a retry). For deterministic tests.
   */
  flush(): Promise<void>;
}

/** Rounds `flush` runs at most, so a job that keeps coming back cannot hang a test. */
const MAX_FLUSH_ROUNDS = 50;

/**
 * The same workers the Node server starts (server/runtime/node/start-server.ts), created over the mock's deps.
 *
 * @example
 * const background = createMockBackground(deps);
 * background.start();
 */
export function createMockBackground(deps: AppDeps, options: MockBackgroundOptions = {}): MockBackground {
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const review = createReviewWorker(deps, { pollIntervalMs });
  const webhooks = createWebhookWorker(deps, { pollIntervalMs });
  const expiry = createExpirySweeper(deps, { intervalMs: Math.max(pollIntervalMs, 1_000) });
  // Hourly, as on the server: a mock rarely lives long enough for evidence to fall due, but one left
  // running (a persisted browser mock) forgets old evidence the way the server would.
  const retention = createRetentionSweeper(deps);
  const workers = [review, webhooks, expiry, retention];
  return {
    start: () => {
      for (const worker of workers) worker.start();
    },
    stop: async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
    },
    async flush() {
      await expiry.runOnce();
      for (let round = 0; round < MAX_FLUSH_ROUNDS; round++) {
        const reviewed = await review.runOnce();
        const delivered = await webhooks.runOnce();
        if (reviewed.claimed === 0 && delivered.fannedOut === 0 && delivered.attempted === 0) return;
      }
    },
  };
}
