/**
 * The worker-only entry: `npm run worker`. Runs the background work (webhook delivery, the automated
 * review, the expiry and retention sweepers; each switchable by IDV_WEBHOOK_WORKER, IDV_REVIEW_WORKER and
 * IDV_SWEEPERS) without an HTTP listener, beside API processes started with IDV_WORKERS=off, on the same
 * PostgreSQL database (DATABASE_URL; the embedded one cannot be shared by two processes) and the same blob
 * store (IDV_BLOB_STORE: the review reads the evidence). Same configuration as `npm start` otherwise.
 *
 * stdout carries JSON log lines (`worker started`, failures, `shutting down`, `stopped`). On SIGTERM or
 * SIGINT each loop finishes the round it is in, so what it has claimed is finished, then the vision
 * workers and the database close and the process exits 0 (1 past IDV_SHUTDOWN_TIMEOUT_MS). A start-up
 * failure is one line on stderr.
 */
import { startBackgroundWorkers } from './workers/background-workers.ts';
import { loadBlobStoreConfig } from './runtime/node/blob-store-config.ts';
import { buildNodeDeps } from './runtime/node/build-node-deps.ts';
import { ConfigError, loadConfig } from './runtime/node/config.ts';
import { jsonLinesLogger } from './runtime/node/json-lines-logger.ts';
import { nodeWebhookSender } from './runtime/node/node-webhook-sender.ts';
import { loadOperationsConfig } from './runtime/node/operations-config.ts';
import { stopOnSignals } from './runtime/node/stop-on-signals.ts';
import { loadWorkersConfig, runningWorkers } from './runtime/node/workers-config.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const operations = loadOperationsConfig(process.env);
  const workers = loadWorkersConfig(process.env, 'worker');
  const blobStore = loadBlobStoreConfig(process.env);
  if (!config.databaseUrl) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_URL: required by the worker process (the embedded database cannot be shared with the API process)',
    );
  }
  const logger = jsonLinesLogger(operations.logLevel);
  const deps = await buildNodeDeps(
    config,
    { logger, webhookSender: nodeWebhookSender({ allowLoopback: operations.webhookAllowLoopback }) },
    { blobStore },
  );
  const background = startBackgroundWorkers(deps, workers);

  let stopping: Promise<{ graceful: boolean }> | null = null;
  const shutdown = async (): Promise<{ graceful: boolean }> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), operations.shutdownTimeoutMs);
    });
    const graceful = await Promise.race([background.stop().then(() => true), deadline]);
    clearTimeout(timer);
    // Past the deadline a round is still running on the database: leave it open for the exit.
    if (!graceful) return { graceful: false };
    await deps.vision?.close().catch(() => {});
    await deps.db.close();
    return { graceful: true };
  };
  stopOnSignals(
    {
      close: () => {
        stopping ??= shutdown();
        return stopping;
      },
    },
    logger,
    operations.shutdownTimeoutMs,
  );
  logger.info('worker started', {
    mode: config.mode,
    database: deps.db.engine,
    blob_store: blobStore.kind,
    workers: runningWorkers(workers),
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`id-verify worker failed to start: ${reason}\n`);
  process.exit(1);
});
