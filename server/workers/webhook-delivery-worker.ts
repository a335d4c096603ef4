import type { AppDeps } from '../app-deps.ts';
import { createPollingLoop } from './polling-loop.ts';
import {
  claimDeliveries,
  fanOutEvents,
  hasWebhookWork,
  purgeDeliveriesBefore,
} from '../store/webhook-deliveries.ts';
import {
  type AttemptDeps,
  attemptDelivery,
  DELIVERY_TIMEOUT_MS,
} from '../features/webhooks/attempt-delivery.ts';
import { RETENTION_MS } from '../features/webhooks/retention.ts';

export type WebhookWorkerDeps = AttemptDeps & Pick<AppDeps, 'ids'>;

export interface WebhookWorkerOptions {
  /** Idle wait between polls when nothing was due (ms). */
  pollIntervalMs?: number;
  /** Events fanned out and deliveries claimed per round. */
  batchSize?: number;
  /** Requests in flight at once per worker. */
  concurrency?: number;
  /**
   * How long a claim holds. Longer than the 15 s timeout, so a live worker always reports first; a dead
   * one's deliveries become due again after it.
   */
  leaseMs?: number;
  /** Jitter source, injectable so tests can pin the schedule. */
  random?: () => number;
}

export interface RoundResult {
  fannedOut: number;
  attempted: number;
}

export interface WebhookWorker {
  /** One round: fan out pending events, then claim and send every due delivery (up to the batch size). */
  runOnce(): Promise<RoundResult>;
  /** Runs rounds until stopped: back to back while there is work, every poll interval when idle. */
  start(): void;
  /** Stops polling and waits for the attempts in flight (at most the 15 s timeout). */
  stop(): Promise<void>;
}

const PURGE_EVERY_MS = 3600 * 1000;
/** Finished deliveries deleted per statement of the hourly purge. */
const PURGE_BATCH = 1000;

async function mapWithConcurrency<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

/**
 * The delivery worker. Web-standard and host-agnostic: the Node server starts it beside the HTTP server;
 * several instances can run against one PostgreSQL database (claims use `SKIP LOCKED` and leases).
 *
 * @example
 * const worker = createWebhookWorker(deps);
 * worker.start();
 * // … on shutdown
 * await worker.stop();
 */
export function createWebhookWorker(
  deps: WebhookWorkerDeps,
  options: WebhookWorkerOptions = {},
): WebhookWorker {
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 16;
  const leaseMs = options.leaseMs ?? DELIVERY_TIMEOUT_MS * 4;
  const random = options.random ?? Math.random;

  let lastPurgeMs = 0;

  async function runOnce(): Promise<RoundResult> {
    const now = deps.clock.now();
    // Most polls find nothing: one cheap read decides whether the two locking transactions are needed.
    const busy = await hasWebhookWork(deps.db, now);
    const fannedOut = busy
      ? await deps.db.transaction((tx) =>
          fanOutEvents(tx, { now, limit: batchSize * 4, newId: () => deps.ids('dlv') }),
        )
      : 0;
    const claimed = busy
      ? await deps.db.transaction((tx) =>
          claimDeliveries(tx, { now, leaseUntil: new Date(now.getTime() + leaseMs), limit: batchSize }),
        )
      : [];
    await mapWithConcurrency(claimed, concurrency, async (delivery) => {
      try {
        await attemptDelivery(deps, delivery, { retry: true, disableOnGone: true, random });
      } catch (error) {
        // The lease brings the delivery back; the attempt row stays in_flight and is marked interrupted.
        deps.logger?.error('webhook attempt could not be recorded', {
          delivery_id: delivery.delivery.id,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
      }
    });
    if (now.getTime() - lastPurgeMs > PURGE_EVERY_MS) {
      lastPurgeMs = now.getTime();
      const cutoff = new Date(now.getTime() - RETENTION_MS);
      while ((await purgeDeliveriesBefore(deps.db, cutoff, PURGE_BATCH)) === PURGE_BATCH) {}
    }
    return { fannedOut, attempted: claimed.length };
  }

  // Back to back while there is work, every poll interval when idle; backs off up to 30 s while the
  // database is unavailable.
  const loop = createPollingLoop({
    name: 'webhook worker round',
    round: runOnce,
    pauseAfter: (round) => (round.fannedOut === 0 && round.attempted === 0 ? pollIntervalMs : 0),
    pauseAfterError: (failures) => Math.min(30_000, pollIntervalMs * 2 ** failures),
    logger: deps.logger,
  });

  return { runOnce, start: loop.start, stop: loop.stop };
}
