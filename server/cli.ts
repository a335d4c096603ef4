/**
 * Operator commands: `npm run idv -- <command>`.
 *
 *   bootstrap --tenant "Acme Ltd" --email ops@acme.example [--sandbox-key] [--production-key]
 *     Creates a tenant and its first tenant_admin (production's way to start; nothing is printed by the
 *     server itself there). Prints the generated password and any keys once.
 */
import { parseArgs } from 'node:util';
import { buildNodeDeps } from './node/build-node-deps.ts';
import { ConfigError, loadConfig } from './node/config.ts';
import { bootstrapTenant } from './tenants/bootstrap-tenant.ts';
import type { Environment } from './domain/api-key-format.ts';

const USAGE = `usage: npm run idv -- bootstrap --tenant <name> --email <admin e-mail> [--sandbox-key] [--production-key]`;

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
    throw new UsageError(`--tenant and a valid --email are required.\n${USAGE}`);
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
    await deps.db.close();
  }
}

class UsageError extends Error {}

const [command, ...rest] = process.argv.slice(2);
const run = command === 'bootstrap' ? bootstrap(rest) : Promise.reject(new UsageError(USAGE));
run.catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(error instanceof ConfigError ? 78 : error instanceof UsageError ? 64 : 1);
});
