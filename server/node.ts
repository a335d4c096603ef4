/**
 * The Node entry: `npm start`. Reads configuration, opens the database (embedded unless DATABASE_URL is
 * set), creates the demo tenant on a development first start, and serves the API.
 */
import { ConfigError, loadConfig } from './node/config.ts';
import { buildNodeDeps, jsonLogger } from './node/build-node-deps.ts';
import { ensureDevelopmentTenant } from './node/development-bootstrap.ts';
import { startServer } from './node/start-server.ts';
import { webhookWorkerOptions } from './node/webhook-worker-config.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const deps = await buildNodeDeps(config);
  const server = await startServer(deps, {
    port: config.port,
    host: config.host,
    webhookWorker: webhookWorkerOptions(process.env),
  });
  const lines = [
    `id-verify ${config.mode} server on ${deps.db.engine === 'pglite' ? `the embedded database (${config.dataDir})` : 'PostgreSQL'}`,
    `  API:            ${config.baseUrl}/v1`,
    `  API reference:  ${config.baseUrl}/docs`,
    `  OpenAPI:        ${config.baseUrl}/v1/openapi.json`,
    `  Hosted page:    ${config.verifyBaseUrl}/verify/<verify_token>`,
  ];
  if (config.mode === 'development') {
    const { credentials, created } = await ensureDevelopmentTenant(deps, {
      dataDir: config.dataDir,
      baseUrl: config.baseUrl,
    });
    if (credentials) {
      lines.push(
        created
          ? '  Demo tenant created. Sandbox credentials (also in credentials.json):'
          : '  Sandbox credentials:',
        `    console e-mail:   ${credentials.console.email}`,
        `    console password: ${credentials.console.password}`,
        `    sandbox API key:  ${credentials.api_keys.sandbox}`,
        `    file:             ${config.dataDir}/credentials.json`,
      );
    }
  } else {
    lines.push(
      '  Production mode: no secrets are printed. Create the first tenant with `npm run idv -- bootstrap`.',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    jsonLogger.info('shutting down', { signal });
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  process.stderr.write(
    `id-verify failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
