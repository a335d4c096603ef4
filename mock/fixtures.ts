import type { AppDeps } from '../server/app-deps.ts';
import { hashApiKey } from '../server/features/auth/api-key-secrets.ts';
import { parseApiKey } from '../server/domain/api-key-format.ts';
import { insertApiKey } from '../server/store/api-keys.ts';
import { findTenant, insertTenant } from '../server/store/tenants.ts';
import { insertUser } from '../server/store/users.ts';

/**
 * The tenant every mock starts with. Fixed values, so a frontend, a test or a README can hard-code them;
 * they are public and only ever valid against the mock (no real server holds them).
 *
 * | what | value |
 * |---|---|
 * | tenant | `ten_MockTenant000000000001`, "Mock Tenant", `active` |
 * | admin user | `usr_MockAdmin0000000000001`, `admin@mock.idv.test` / `mock-admin-password`, `tenant_admin` |
 * | sandbox API key | `sk_sandbox_MockKey1OfflineSandboxSecret010Ofyms` (record `key_MockSandboxKey000000001`) |
 *
 * @example
 * import { MOCK_FIXTURES } from '@id-verify/mock';
 * await fetch(`${origin}/v1/sessions`, { headers: { 'x-api-key': MOCK_FIXTURES.sandboxKey }, … });
 */
export const MOCK_FIXTURES = {
  tenantId: 'ten_MockTenant000000000001',
  tenantName: 'Mock Tenant',
  adminUserId: 'usr_MockAdmin0000000000001',
  adminEmail: 'admin@mock.idv.test',
  adminPassword: 'mock-admin-password',
  sandboxKeyRecordId: 'key_MockSandboxKey000000001',
  sandboxKey: 'sk_sandbox_MockKey1OfflineSandboxSecret010Ofyms',
} as const;

export type MockFixtures = typeof MOCK_FIXTURES;

/**
 * Writes the fixture tenant, its admin and its sandbox key unless the tenant already exists, so a
 * persisted (IndexedDB) mock database keeps whatever the developer did with it across reloads.
 * Returns whether it seeded.
 */
export async function seedMockFixtures(deps: Pick<AppDeps, 'db' | 'clock' | 'passwords'>): Promise<boolean> {
  const fixtures = MOCK_FIXTURES;
  if (await findTenant(deps.db, fixtures.tenantId)) return false;
  const parsed = parseApiKey(fixtures.sandboxKey);
  // The literal above is documented; this guards it against an edit that breaks the checksum.
  if (!parsed) throw new Error('MOCK_FIXTURES.sandboxKey is not a well-formed API key.');
  const passwordHash = await deps.passwords.hash(fixtures.adminPassword);
  const secretHash = await hashApiKey(fixtures.sandboxKey);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await insertTenant(tx, { id: fixtures.tenantId, name: fixtures.tenantName, now });
    await insertUser(tx, {
      id: fixtures.adminUserId,
      tenantId: fixtures.tenantId,
      email: fixtures.adminEmail,
      passwordHash,
      role: 'tenant_admin',
      now,
    });
    await insertApiKey(tx, {
      id: fixtures.sandboxKeyRecordId,
      tenant_id: fixtures.tenantId,
      environment: 'sandbox',
      name: 'Mock sandbox key (fixture)',
      key_id: parsed.keyId,
      secret_hash: secretHash,
      last4: fixtures.sandboxKey.slice(-4),
      created_by: fixtures.adminUserId,
      created_at: now,
    });
  });
  return true;
}
