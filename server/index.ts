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
export { startBackgroundWorkers } from './background/background-workers.ts';
export { buildNodeDeps } from './node/build-node-deps.ts';
export { ConfigError, loadConfig, type ServerConfig } from './node/config.ts';
export { jsonLinesLogger } from './node/json-lines-logger.ts';
export { nodeConsoleAssets } from './node/node-console-assets.ts';
export { nodeWebhookSender } from './node/node-webhook-sender.ts';
export { nodeWidgetAssets } from './node/node-widget-assets.ts';
export { openDatabase } from './node/open-database.ts';
export {
  ListenError,
  type RunningServer,
  type ServerDeps,
  type StartServerOptions,
  startServer,
} from './node/start-server.ts';
export { stopOnSignals } from './node/stop-on-signals.ts';
export { bootstrapTenant } from './tenants/bootstrap-tenant.ts';
