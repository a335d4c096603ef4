import type { AppDeps } from '../app-deps.ts';
import { createRetentionSweeper } from './retention-sweeper.ts';
import { createReviewWorker } from './review-worker.ts';
import { createExpirySweeper } from './expiry-sweeper.ts';
import { createWebhookWorker, type WebhookWorkerOptions } from './webhook-delivery-worker.ts';

export interface BackgroundWorkerSelection {
  /** The webhook delivery worker with its options, or false for none. */
  webhooks: WebhookWorkerOptions | false;
  /** The automated review worker. */
  review: boolean;
  /** The session expiry and evidence retention sweepers. */
  sweepers: boolean;
}

export interface BackgroundWorkers {
  /** Stops every loop and waits for each one's round in flight (see createPollingLoop). */
  stop(): Promise<void>;
}

/**
 * Starts the selected background loops of one process: the API process (start-server.ts) and the
 * worker-only process (worker.ts) run the same code. Any number of processes may run any of them at once:
 * jobs and deliveries are claimed with `SKIP LOCKED` under leases and sessions are changed under row
 * locks, so each job is done once. A stop lets the round in flight finish, so what a loop has claimed is
 * finished; a process that dies instead leaves its leases to lapse, and another one takes the work over.
 *
 * @example
 * const workers = startBackgroundWorkers(deps, { webhooks: {}, review: true, sweepers: true });
 * await workers.stop();
 */
export function startBackgroundWorkers(
  deps: AppDeps,
  selection: BackgroundWorkerSelection,
): BackgroundWorkers {
  const loops = [
    ...(selection.webhooks === false ? [] : [createWebhookWorker(deps, selection.webhooks)]),
    ...(selection.review ? [createReviewWorker(deps)] : []),
    ...(selection.sweepers ? [createExpirySweeper(deps), createRetentionSweeper(deps)] : []),
  ];
  for (const loop of loops) loop.start();
  return {
    stop: async () => {
      await Promise.all(loops.map((loop) => loop.stop().catch(() => {})));
    },
  };
}
