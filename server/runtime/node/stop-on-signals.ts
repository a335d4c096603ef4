import type { Logger } from '../../logger.ts';

/** After the stop deadline, this much more for the database to close before the process just exits. */
const EXIT_BACKSTOP_MS = 5_000;

/** What a process stops on a signal: the API server (start-server.ts) or the worker process (worker.ts). */
export interface Stoppable {
  /** Stops gracefully; `graceful` is false when the deadline passed first. */
  close(): Promise<{ graceful: boolean }>;
}

/**
 * Stops the process on SIGTERM or SIGINT: logs `shutting down`, waits for `close`, logs `stopped` and
 * exits 0, or 1 when the deadline passed first or the stop failed. A second signal exits at once, and a
 * stop that hangs past the deadline (plus a backstop for the database to close) exits 1 anyway.
 *
 * @example
 * stopOnSignals(server, logger, operations.shutdownTimeoutMs);
 */
export function stopOnSignals(stoppable: Stoppable, logger: Logger, shutdownTimeoutMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.error('second signal during shutdown; exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    const started = performance.now();
    logger.info('shutting down', { signal });
    setTimeout(() => {
      logger.error('shutdown did not finish; exiting', {});
      process.exit(1);
    }, shutdownTimeoutMs + EXIT_BACKSTOP_MS).unref();
    stoppable.close().then(
      ({ graceful }) => {
        const duration_ms = Math.round(performance.now() - started);
        if (graceful) logger.info('stopped', { duration_ms });
        else logger.error('stopped at the deadline; work still in progress was cut off', { duration_ms });
        process.exit(graceful ? 0 : 1);
      },
      (error: unknown) => {
        logger.error('shutdown failed', { error: error instanceof Error ? error.name : typeof error });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
