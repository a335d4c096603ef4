import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppDeps } from '../app-deps.ts';
import { countTenants } from '../store/tenants.ts';
import { bootstrapTenant } from '../tenants/bootstrap-tenant.ts';

export interface DevelopmentCredentials {
  base_url: string;
  console: { email: string; password: string };
  api_keys: { sandbox: string };
}

export const DEMO_ADMIN_EMAIL = 'admin@demo.id-verify.test';

/**
 * Development first start: an empty database gets "Demo Tenant", an admin with a random password and a
 * sandbox key, written to `<dataDir>/credentials.json` (0600). Later starts read that file back.
 * Returns the credentials and whether they were created just now.
 */
export async function ensureDevelopmentTenant(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'passwords'>,
  options: { dataDir: string; baseUrl: string },
): Promise<{ credentials: DevelopmentCredentials | null; created: boolean }> {
  const path = join(options.dataDir, 'credentials.json');
  if ((await countTenants(deps.db)) > 0) {
    try {
      return {
        credentials: JSON.parse(await readFile(path, 'utf8')) as DevelopmentCredentials,
        created: false,
      };
    } catch {
      return { credentials: null, created: false };
    }
  }
  const result = await bootstrapTenant(deps, {
    tenantName: 'Demo Tenant',
    adminEmail: DEMO_ADMIN_EMAIL,
    apiKeys: ['sandbox'],
  });
  const credentials: DevelopmentCredentials = {
    base_url: options.baseUrl,
    console: { email: result.email, password: result.password },
    api_keys: { sandbox: result.apiKeys.sandbox as string },
  };
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return { credentials, created: true };
}
