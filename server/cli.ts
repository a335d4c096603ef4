/**
 * The operator's command line: `id-verify-server <command>` from the @id-verify/server package (its bin,
 * server/bin/id-verify-server.ts), `npm run idv -- <command>` in this repository. Every command reads the
 * same environment as the server (.env.example, docs/deployment.md).
 *
 *   serve       the API, the hosted page and the console, plus the background work IDV_WORKERS allows
 *               (`npm start`'s server/node.ts)
 *   worker      the background work alone, no HTTP listener (`npm run worker`'s server/worker.ts)
 *   migrate     brings the database up to date, then exits (serve and worker also migrate at start)
 *   bootstrap   --tenant "Acme Ltd" --email ops@acme.example [--sandbox-key] [--production-key]
 *               creates a tenant and its first tenant_admin (production's way to start; nothing is
 *               printed by the server itself there). Prints the generated password and any keys once.
 *   index-names builds the review queue's name search index for sessions reviewed before it existed
 *               (migration 017); safe to repeat and to run beside a live server.
 *
 * Exit codes: 0 done, 64 a usage error, 78 a configuration error, 1 anything else. `serve` and `worker`
 * run until SIGTERM or SIGINT with their own codes (server/node.ts, server/worker.ts).
 */
import { parseArgs } from 'node:util';
import type { Environment } from './domain/api-key-format.ts';
import { buildNodeDeps } from './runtime/node/build-node-deps.ts';
import { ConfigError, loadConfig } from './runtime/node/config.ts';
import { openDatabase } from './runtime/node/open-database.ts';
import { backfillNameIndex } from './features/review-queue/backfill-name-index.ts';
import { bootstrapTenant } from './features/tenants/bootstrap-tenant.ts';

const USAGE = `usage: id-verify-server <command>   (in the repository: npm run idv -- <command>)

commands:
  serve                                   the API, hosted page and console (and the background work)
  worker                                  the background work only, no HTTP listener
  migrate                                 migrates the database (DATABASE_URL, else the embedded one), then exits
  bootstrap --tenant <name> --email <admin e-mail> [--sandbox-key] [--production-key]
                                          creates a tenant and its first admin; prints the secrets once
  index-names                             indexes the names of sessions reviewed before name search existed
  help                                    this text

Configuration is the environment only: see .env.example and docs/deployment.md.`;

class UsageError extends Error {}

async function bootstrap(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      tenant: { type: 'string' },
      email: { type: 'string' },
      'sandbox-key': { type: 'boolean', default: false },
      'production-key': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.tenant || !values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) {
    throw new UsageError(`bootstrap: --tenant and a valid --email are required.\n\n${USAGE}`);
  }
  const config = loadConfig(process.env);
  const deps = await buildNodeDeps(config);
  try {
    const apiKeys: Environment[] = [];
    if (values['sandbox-key']) apiKeys.push('sandbox');
    if (values['production-key']) apiKeys.push('production');
    const result = await bootstrapTenant(deps, {
      tenantName: values.tenant,
      adminEmail: values.email,
      apiKeys,
    });
    const lines = [
      `tenant ${result.tenantId} created with admin ${result.email}`,
      `admin password (shown once): ${result.password}`,
      ...Object.entries(result.apiKeys).map(
        ([environment, key]) => `${environment} API key (shown once): ${key}`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await deps.vision?.close().catch(() => {});
    await deps.db.close();
  }
}

/** Opening the database migrates it (under an advisory lock on PostgreSQL); nothing else is started. */
async function migrateDatabase(args: string[]): Promise<void> {
  parseArgs({ args, options: {}, strict: true });
  const config = loadConfig(process.env);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await db.close();
  const where = db.engine === 'pglite' ? `the embedded database (${config.dataDir})` : 'PostgreSQL';
  process.stdout.write(`${where} is migrated\n`);
}

/** The name index for sessions reviewed before migration 017 (features/review-queue/backfill-name-index.ts). */
async function indexNames(args: string[]): Promise<void> {
  parseArgs({ args, options: {}, strict: true });
  const deps = await buildNodeDeps(loadConfig(process.env));
  try {
    const { examined, indexed } = await backfillNameIndex(deps);
    process.stdout.write(`${examined} reviewed sessions without a name index, ${indexed} indexed\n`);
  } finally {
    await deps.vision?.close().catch(() => {});
    await deps.db.close();
  }
}

/** Runs one command. `serve` and `worker` import their entry, which starts on import and owns the process. */
async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
    case 'worker':
      if (rest.length > 0)
        throw new UsageError(`${command} takes no arguments (configure it by the environment).\n\n${USAGE}`);
      await (command === 'serve' ? import('./node.ts') : import('./worker.ts'));
      return;
    case 'migrate':
      return migrateDatabase(rest);
    case 'bootstrap':
      return bootstrap(rest);
    case 'index-names':
      return indexNames(rest);
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(command ? `unknown command "${command}".\n\n${USAGE}` : USAGE);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n`);
  const code = (error as { code?: unknown } | null)?.code;
  const parseError = typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
  process.exit(error instanceof ConfigError ? 78 : error instanceof UsageError || parseError ? 64 : 1);
});
