/**
 * `@id-verify/server`: the server as a library, for an operator who embeds it rather than running the
 * `id-verify-server` command. `createApp` is the web-standard Hono app (any runtime that speaks
 * `Request`/`Response`); the rest are the Node adapters `id-verify-server serve` itself is built from.
 *
 * @example
 * import { buildNodeDeps, loadConfig, startServer } from '@id-verify/server';
 *
 * const config = loadConfig(process.env);
 * const server = await startServer(() => buildNodeDeps(config), { port: config.port, baseUrl: config.baseUrl });
 */
export { API_VERSION, type App, createApp } from './app.ts';
export type { AppDeps } from './app-deps.ts';
export { startBackgroundWorkers } from './workers/background-workers.ts';
export { buildNodeDeps } from './runtime/node/build-node-deps.ts';
export { ConfigError, loadConfig, type ServerConfig } from './runtime/node/config.ts';
export { jsonLinesLogger } from './runtime/node/json-lines-logger.ts';
export { nodeConsoleAssets } from './runtime/node/node-console-assets.ts';
export { nodeWebhookSender } from './runtime/node/node-webhook-sender.ts';
export { nodeWidgetAssets } from './runtime/node/node-widget-assets.ts';
export { openDatabase } from './runtime/node/open-database.ts';
export {
  ListenError,
  type RunningServer,
  type ServerDeps,
  type StartServerOptions,
  startServer,
} from './runtime/node/start-server.ts';
export { stopOnSignals } from './runtime/node/stop-on-signals.ts';
export { bootstrapTenant } from './features/tenants/bootstrap-tenant.ts';
