/**
 * The Node entry: `npm start`. Reads configuration, binds the port, opens the database (embedded unless
 * DATABASE_URL is set) and migrates it, opens the blob store (IDV_BLOB_STORE), starts the background workers
 * this process runs (IDV_WORKERS and the per-worker switches; `npm run worker` runs them alone), creates
 * the demo tenant on a development first start, and serves the API until SIGTERM or SIGINT, then stops
 * gracefully (start-server.ts).
 *
 * stdout carries JSON log lines (one per request, plus start-up and shutdown) and, in development mode
 * only, a short banner for the person at the terminal. A start-up failure is one line on stderr.
 */
import type { DemoState } from './http/pages/demo/demo-host.ts';
import { loadBlobStoreConfig } from './runtime/node/blob-store-config.ts';
import { buildNodeDeps } from './runtime/node/build-node-deps.ts';
import { ConfigError, loadConfig, type ServerConfig } from './runtime/node/config.ts';
import {
  type DevelopmentTenant,
  developmentSandboxKey,
  ensureDevelopmentTenant,
} from './runtime/node/development-bootstrap.ts';
import { jsonLinesLogger } from './runtime/node/json-lines-logger.ts';
import { nodeWebhookSender } from './runtime/node/node-webhook-sender.ts';
import { loadOperationsConfig } from './runtime/node/operations-config.ts';
import { ListenError, startServer } from './runtime/node/start-server.ts';
import { stopOnSignals } from './runtime/node/stop-on-signals.ts';
import { loadWorkersConfig, runningWorkers } from './runtime/node/workers-config.ts';

function developmentBanner(
  config: ServerConfig,
  database: string,
  demo: DevelopmentTenant,
  shop: DemoState | null,
): string {
  const lines = [
    `id-verify development server on ${database}`,
    // No line at all without a demo host: an installed package has none by design.
    ...(shop ? [`  Demo shop:      ${config.baseUrl}/demo/`] : []),
    ...(shop?.kind === 'unavailable' ? [`    not running: ${shop.reason}`] : []),
    `  API:            ${config.baseUrl}/v1`,
    `  API reference:  ${config.baseUrl}/docs`,
    `  OpenAPI:        ${config.baseUrl}/v1/openapi.json`,
    `  Console:        ${config.baseUrl}/console`,
    `  Widget script:  ${config.baseUrl}/sdk/id-verify.js`,
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

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const operations = loadOperationsConfig(process.env);
  const workers = loadWorkersConfig(process.env, 'api');
  const blobStore = loadBlobStoreConfig(process.env);
  const logger = jsonLinesLogger(operations.logLevel);
  // The port first: a busy one fails before the database is opened or migrated.
  const server = await startServer(
    () =>
      buildNodeDeps(
        config,
        {
          logger,
          webhookSender: nodeWebhookSender({ allowLoopback: operations.webhookAllowLoopback }),
        },
        { blobStore },
      ),
    {
      port: config.port,
      host: config.host,
      baseUrl: config.baseUrl,
      webhookWorker: workers.webhooks,
      ...(workers.review ? {} : { reviewWorker: false as const }),
      sweepers: workers.sweepers,
      shutdownTimeoutMs: operations.shutdownTimeoutMs,
    },
  );
  const { deps } = server;
  stopOnSignals(server, logger, operations.shutdownTimeoutMs);
  const database = deps.db.engine === 'pglite' ? `the embedded database (${config.dataDir})` : 'PostgreSQL';
  if (config.mode === 'development') {
    const demo = await ensureDevelopmentTenant(deps, { dataDir: config.dataDir, baseUrl: config.baseUrl });
    // The demo shop's backend calls the API over this process's own socket, as a tenant's server would,
    // and registers its webhook endpoint there (development mode lets webhooks reach loopback).
    const shop = deps.demo
      ? await deps.demo.start({
          apiBase: server.url,
          pageUrl: `${config.baseUrl}/demo/`,
          apiKey: await developmentSandboxKey(demo),
        })
      : null;
    // The API serves regardless: a demo shop that cannot start is worth an info line, not an error.
    if (shop?.kind === 'unavailable') logger.info('demo shop unavailable', { reason: shop.reason });
    process.stdout.write(developmentBanner(config, database, demo, shop));
  }
  logger.info('server started', {
    mode: config.mode,
    url: config.baseUrl,
    port: server.port,
    database: deps.db.engine,
    blob_store: blobStore.kind,
    webhook_worker: workers.webhooks === false ? 'off' : 'on',
    workers: runningWorkers(workers),
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
