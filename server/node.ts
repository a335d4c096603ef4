/**
 * The Node entry: `npm start`. Reads configuration, binds the port, opens the database (embedded unless
 * DATABASE_URL is set) and migrates it, starts the background workers, creates the demo tenant on a development first
 * start, and serves the API until SIGTERM or SIGINT, then stops gracefully (start-server.ts).
 *
 * stdout carries JSON log lines (one per request, plus start-up and shutdown) and, in development mode
 * only, a short banner for the person at the terminal. A start-up failure is one line on stderr.
 */
import type { Logger } from './app-deps.ts';
import { buildNodeDeps } from './node/build-node-deps.ts';
import { ConfigError, loadConfig, type ServerConfig } from './node/config.ts';
import { type DevelopmentTenant, ensureDevelopmentTenant } from './node/development-bootstrap.ts';
import { jsonLinesLogger } from './node/json-lines-logger.ts';
import { nodeWebhookSender } from './node/node-webhook-sender.ts';
import { loadOperationsConfig } from './node/operations-config.ts';
import { ListenError, type RunningServer, startServer } from './node/start-server.ts';
import { webhookWorkerOptions } from './node/webhook-worker-config.ts';

/** After the stop deadline, this much more for the database to close before the process just exits. */
const EXIT_BACKSTOP_MS = 5_000;

function developmentBanner(config: ServerConfig, database: string, demo: DevelopmentTenant): string {
  const lines = [
    `id-verify development server on ${database}`,
    `  API:            ${config.baseUrl}/v1`,
    `  API reference:  ${config.baseUrl}/docs`,
    `  OpenAPI:        ${config.baseUrl}/v1/openapi.json`,
    `  Console:        ${config.baseUrl}/console`,
    `  Hosted page:    ${config.verifyBaseUrl}/verify/<verify_token>`,
  ];
  if (demo.created) {
    // The only time these secrets are shown: later starts point at the file instead.
    lines.push(
      '  Demo tenant created. Sandbox credentials (shown once; also in the file below):',
      `    console e-mail:   ${demo.credentials.console.email}`,
      `    console password: ${demo.credentials.console.password}`,
      `    sandbox API key:  ${demo.credentials.api_keys.sandbox}`,
      `    file:             ${demo.file}`,
    );
  } else if (demo.file) {
    lines.push(`  Demo tenant credentials: ${demo.file}`);
  }
  return `${lines.join('\n')}\n`;
}

function stopOnSignals(server: RunningServer, logger: Logger, shutdownTimeoutMs: number): void {
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
    server.close().then(
      ({ graceful }) => {
        const duration_ms = Math.round(performance.now() - started);
        if (graceful) logger.info('stopped', { duration_ms });
        else
          logger.error('stopped at the deadline; requests still in progress were cut off', { duration_ms });
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

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const operations = loadOperationsConfig(process.env);
  const webhookWorker = webhookWorkerOptions(process.env);
  const logger = jsonLinesLogger(operations.logLevel);
  // The port first: a busy one fails before the database is opened or migrated.
  const server = await startServer(
    () =>
      buildNodeDeps(config, {
        logger,
        webhookSender: nodeWebhookSender({ allowLoopback: operations.webhookAllowLoopback }),
      }),
    {
      port: config.port,
      host: config.host,
      baseUrl: config.baseUrl,
      webhookWorker,
      shutdownTimeoutMs: operations.shutdownTimeoutMs,
    },
  );
  const { deps } = server;
  stopOnSignals(server, logger, operations.shutdownTimeoutMs);
  const database = deps.db.engine === 'pglite' ? `the embedded database (${config.dataDir})` : 'PostgreSQL';
  if (config.mode === 'development') {
    const demo = await ensureDevelopmentTenant(deps, { dataDir: config.dataDir, baseUrl: config.baseUrl });
    process.stdout.write(developmentBanner(config, database, demo));
  }
  logger.info('server started', {
    mode: config.mode,
    url: config.baseUrl,
    port: server.port,
    database: deps.db.engine,
    webhook_worker: webhookWorker === false ? 'off' : 'on',
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`id-verify failed to start: ${reason}\n`);
  process.exit(error instanceof ListenError ? 69 : 1); // EX_UNAVAILABLE for a port that cannot be had
});
