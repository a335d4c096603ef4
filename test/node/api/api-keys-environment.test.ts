import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

// A console token acts on the environment it names (`x-environment`, production when absent): the other
// environment's keys are neither listed, created nor revoked with it (issue 24 item 10).

for (const engine of testEngines()) {
  describe(`API keys under a console token act on its environment only (${engine})`, () => {
    let h: TestHarness;
    let token: string;
    const as = (environment: 'sandbox' | 'production') => ({
      token,
      headers: { 'x-environment': environment },
    });
    before(async () => {
      h = await createHarness(engine);
      token = await h.login();
    });
    after(() => h.close());

    async function keysOf(environment: 'sandbox' | 'production'): Promise<Record<string, string>[]> {
      const response = await h.call('GET', '/v1/api-keys', as(environment));
      assert.equal(response.status, 200);
      return (await json(response))['data'];
    }

    it('lists only the keys of the named environment, production by default', async () => {
      const sandbox = await keysOf('sandbox');
      const production = await keysOf('production');
      assert.ok(sandbox.length > 0 && production.length > 0);
      assert.ok(sandbox.every((key) => key['environment'] === 'sandbox'));
      assert.ok(production.every((key) => key['environment'] === 'production'));
      const unnamed = await json(await h.call('GET', '/v1/api-keys', { token }));
      assert.deepEqual(unnamed['data'], production);
    });

    it('refuses to create a key of the other environment', async () => {
      const refused = await h.call('POST', '/v1/api-keys', {
        ...as('production'),
        body: { name: 'cross', environment: 'sandbox' },
      });
      assert.equal(refused.status, 400);
      const problem = await json(refused);
      assert.equal(problem['code'], 'invalid_parameter');
      assert.equal(problem['param'], 'environment');
      assert.ok(!(await keysOf('sandbox')).some((key) => key['name'] === 'cross'));
      const made = await h.call('POST', '/v1/api-keys', {
        ...as('sandbox'),
        body: { name: 'own', environment: 'sandbox' },
      });
      assert.equal(made.status, 201);
    });

    it('does not find a sandbox key to revoke with a production token, and leaves it working', async () => {
      const created = await json(
        await h.call('POST', '/v1/api-keys', {
          ...as('sandbox'),
          body: { name: 'target', environment: 'sandbox' },
        }),
      );
      const id = created['api_key_id'];
      for (const options of [as('production'), { token }]) {
        const refused = await h.call('DELETE', `/v1/api-keys/${id}`, options);
        assert.equal(refused.status, 404);
        assert.equal((await json(refused))['code'], 'resource_missing');
      }
      // The key still authenticates: nothing was revoked.
      assert.equal((await h.call('GET', '/v1/sessions', { key: created['secret'] })).status, 200);
      const revoked = await h.call('DELETE', `/v1/api-keys/${id}`, as('sandbox'));
      assert.equal(revoked.status, 200);
      assert.equal((await h.call('GET', '/v1/sessions', { key: created['secret'] })).status, 401);
    });

    it('does not find a production key to revoke with a sandbox token', async () => {
      const [production] = await keysOf('production');
      const refused = await h.call('DELETE', `/v1/api-keys/${production!['api_key_id']}`, as('sandbox'));
      assert.equal(refused.status, 404);
      assert.equal((await keysOf('production'))[0]!['revoked_at'], null);
      assert.equal((await h.call('GET', '/v1/sessions', { key: h.tenant.productionKey })).status, 200);
    });
  });
}
