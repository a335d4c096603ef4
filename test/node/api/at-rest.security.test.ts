// Reads every row of every table, as an attacker with a copy of the database would, and looks for the
// secrets and personal data the API handled. New tables are covered automatically.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

async function dumpDatabase(h: TestHarness): Promise<string> {
  const tables = await h.deps.db.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  assert.ok(tables.length >= 8, 'expected the schema to be there');
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await h.deps.db.query(`select * from "${table_name}"`);
    parts.push(`${table_name}: ${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

for (const engine of testEngines()) {
  describe(`data at rest (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('holds no plaintext API key, password, access token, verify token or personal reference', async () => {
      const token = await h.login();
      const createdKey = await json(
        await h.call('POST', '/v1/api-keys', {
          token,
          headers: { 'x-environment': 'sandbox' },
          body: { environment: 'sandbox', name: 'scan' },
        }),
      );
      const session = await json(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          // A stored idempotent answer holds the whole response: verify_url, reference, metadata.
          headers: { 'idempotency-key': 'at-rest-scan' },
          body: {
            country: 'DEU',
            flow: 'user',
            tier: 'tier2',
            external_user_reference: 'customer-4711-jane.doe@example.com',
            metadata: { phone: '+49 30 901820' },
          },
        }),
      );
      const refreshed = await json(
        await h.call('POST', `/v1/sessions/${session['session_id']}/verify-url`, {
          key: h.tenant.sandboxKey,
        }),
      );
      await h.call('POST', '/v1/console/logout', { token });

      const verifyToken = (url: string) => url.split('/verify/')[1]!;
      const secrets: Record<string, string> = {
        'sandbox key': h.tenant.sandboxKey,
        'production key': h.tenant.productionKey,
        'created key': createdKey['secret'],
        'admin password': h.tenant.password,
        'access token': token,
        'access token signature': token.split('.')[2]!,
        'first verify token': verifyToken(session['verify_url']),
        'fresh verify token': verifyToken(refreshed['verify_url']),
        'external reference': 'customer-4711-jane.doe@example.com',
        'metadata value': '+49 30 901820',
      };
      const dump = await dumpDatabase(h);
      for (const [what, secret] of Object.entries(secrets)) {
        assert.ok(secret && secret.length >= 8, `${what} should be a real value`);
        assert.ok(!dump.includes(secret), `the database holds the ${what} in plaintext`);
      }
      // Key secrets: not even the random part without its prefix.
      const keySecretPart = h.tenant.sandboxKey.slice('sk_sandbox_'.length + 8, -6);
      assert.ok(!dump.includes(keySecretPart), 'the database holds the secret part of an API key');
    });
  });
}
