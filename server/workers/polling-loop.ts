import type { Logger } from '../logger.ts';

export interface PollingLoop {
  /** Runs the first round at once, then one round after another until `stop`. Idempotent. */
  start(): void;
  /** Stops scheduling and waits for the round in flight, so the database can close after it. */
  stop(): Promise<void>;
}

export interface PollingLoopOptions<T> {
  /** One round of work (the worker's or sweeper's `runOnce`). */
  round: () => Promise<T>;
  /** The pause after a successful round: e.g. 0 after a full batch, the poll interval otherwise. */
  pauseAfter: (result: T) => number;
  /** The pause after a failed round: fixed, or by the count of failures in a row (1 for the first) to back off. */
  pauseAfterError: number | ((consecutiveFailures: number) => number);
  /** Reported as `<name> failed`; only the error's class is logged, never its message (it may quote data). */
  name: string;
  logger?: Logger | undefined;
}

/**
 * The background loop every worker and sweeper of an instance shares: rounds never overlap, a failed round
 * is logged and retried after a pause, and `stop` lets the last round finish.
 *
 * @example
 * const loop = createPollingLoop({ name: 'expiry sweep', round: runOnce, pauseAfter: () => 30_000,
 *   pauseAfterError: 30_000, logger: deps.logger });
 * loop.start();
 */
export function createPollingLoop<T>(options: PollingLoopOptions<T>): PollingLoop {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  let failures = 0;
  const pauseAfterError = (count: number) =>
    typeof options.pauseAfterError === 'number' ? options.pauseAfterError : options.pauseAfterError(count);

  function schedule(delay: number): void {
    if (!running) return;
    timer = setTimeout(() => {
      inFlight = options.round().then(
        (result) => {
          failures = 0;
          schedule(options.pauseAfter(result));
        },
        (error: unknown) => {
          failures += 1;
          options.logger?.error(`${options.name} failed`, {
            error: error instanceof Error ? error.name : typeof error,
          });
          schedule(pauseAfterError(failures));
        },
      );
    }, delay);
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight;
    },
  };
}
