import type { AppDeps } from '../../app-deps.ts';
import { issueApiKey } from '../auth/api-key-secrets.ts';
import { randomBase62 } from '../../crypto/primitives.ts';
import type { Environment } from '../../domain/api-key-format.ts';
import { insertApiKey } from '../../store/api-keys.ts';
import { insertTenant } from '../../store/tenants.ts';
import { insertUser } from '../../store/users.ts';

export interface BootstrapRequest {
  tenantName: string;
  adminEmail: string;
  /** Omit to generate a strong random one (returned once). */
  adminPassword?: string;
  /** Which API keys to create alongside; none by default. */
  apiKeys?: Environment[];
}

export interface BootstrapResult {
  tenantId: string;
  userId: string;
  email: string;
  password: string;
  apiKeys: Partial<Record<Environment, string>>;
}

/**
 * Creates a tenant, its first `tenant_admin` and optional API keys in one transaction. Used by the
 * development first start and by the production `bootstrap` command. Secrets are returned once, never
 * stored in clear.
 *
 * @example
 * const { password, apiKeys } = await bootstrapTenant(deps, { tenantName: 'Acme', adminEmail: 'ops@acme.test', apiKeys: ['sandbox'] });
 */
export async function bootstrapTenant(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'passwords'>,
  request: BootstrapRequest,
): Promise<BootstrapResult> {
  const password = request.adminPassword ?? randomBase62(128);
  const passwordHash = await deps.passwords.hash(password);
  const issued = await Promise.all(
    (request.apiKeys ?? []).map(async (environment) => ({
      environment,
      key: await issueApiKey(environment),
    })),
  );
  const tenantId = deps.ids('ten');
  const userId = deps.ids('usr');
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await insertTenant(tx, { id: tenantId, name: request.tenantName, now });
    await insertUser(tx, {
      id: userId,
      tenantId,
      email: request.adminEmail,
      passwordHash,
      role: 'tenant_admin',
      now,
    });
    for (const { environment, key } of issued) {
      await insertApiKey(tx, {
        id: deps.ids('key'),
        tenant_id: tenantId,
        environment,
        name: `${environment} key (bootstrap)`,
        key_id: key.keyId,
        secret_hash: key.secretHash,
        last4: key.last4,
        created_by: userId,
        created_at: now,
      });
    }
  });
  return {
    tenantId,
    userId,
    email: request.adminEmail,
    password,
    apiKeys: Object.fromEntries(issued.map(({ environment, key }) => [environment, key.secret])),
  };
}
