import { randomBytes } from 'node:crypto';
import { access, chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppDeps } from '../../app-deps.ts';
import { countTenants } from '../../store/tenants.ts';
import { bootstrapTenant } from '../../features/tenants/bootstrap-tenant.ts';

export interface DevelopmentCredentials {
  base_url: string;
  console: { email: string; password: string };
  api_keys: { sandbox: string };
}

export const DEMO_ADMIN_EMAIL = 'admin@demo.id-verify.test';

/** An arbitrary constant, distinct from the migration lock: one instance at a time creates the demo tenant. */
const DEVELOPMENT_BOOTSTRAP_LOCK_ID = 7_431_903;

export type DevelopmentTenant =
  /** Created just now: the only time the secrets are shown. */
  | { created: true; credentials: DevelopmentCredentials; file: string }
  /** Already there: the secrets are in `file` (if it still exists), never printed again. */
  | { created: false; file: string | null };

async function writePrivateFile(path: string, contents: string): Promise<void> {
  // Whole or not at all: a reader never sees half a file, even if this process dies mid-write.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, contents, { mode: 0o600, flag: 'wx' });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Development first start: an empty database gets "Demo Tenant", an admin with a random password and a
 * sandbox key, written to `<dataDir>/credentials.json` (0600). The check and the creation run in one
 * transaction under an advisory lock, so two instances started together create exactly one tenant, and
 * the file is written before that transaction commits, so the secrets are never lost to a crash in
 * between. Later starts (and the instance that lost the race) only learn where the file is.
 *
 * @example
 * const demo = await ensureDevelopmentTenant(deps, { dataDir: './.idv', baseUrl: 'http://localhost:8080' });
 * if (demo.created) print(demo.credentials.console.password);
 */
export async function ensureDevelopmentTenant(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'passwords'>,
  options: { dataDir: string; baseUrl: string },
): Promise<DevelopmentTenant> {
  const file = join(options.dataDir, 'credentials.json');
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const credentials = await deps.db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [DEVELOPMENT_BOOTSTRAP_LOCK_ID]);
    if ((await countTenants(tx)) > 0) return null;
    const result = await bootstrapTenant(
      { ...deps, db: tx },
      { tenantName: 'Demo Tenant', adminEmail: DEMO_ADMIN_EMAIL, apiKeys: ['sandbox'] },
    );
    const created: DevelopmentCredentials = {
      base_url: options.baseUrl,
      console: { email: result.email, password: result.password },
      api_keys: { sandbox: result.apiKeys.sandbox as string },
    };
    await writePrivateFile(file, `${JSON.stringify(created, null, 2)}\n`);
    return created;
  });
  if (credentials) return { created: true, credentials, file };
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  return { created: false, file: exists ? file : null };
}

/**
 * The development tenant's sandbox key, for the demo shop's backend (server/http/pages/demo/): from this start's
 * credentials when the tenant was just created, else from the credentials file; null when that file is
 * gone or unreadable (the key is stored only as a hash, so it cannot be recovered).
 *
 * @example
 * const key = await developmentSandboxKey(await ensureDevelopmentTenant(deps, options));
 */
export async function developmentSandboxKey(tenant: DevelopmentTenant): Promise<string | null> {
  if (tenant.created) return tenant.credentials.api_keys.sandbox;
  if (!tenant.file) return null;
  try {
    const stored = JSON.parse(await readFile(tenant.file, 'utf8')) as Partial<DevelopmentCredentials>;
    const key = stored.api_keys?.sandbox;
    return typeof key === 'string' && key.startsWith('sk_sandbox_') ? key : null;
  } catch {
    return null;
  }
}
