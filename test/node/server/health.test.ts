import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../../server/app.ts';
import type { SqlClient } from '../../../server/store/sql-client.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

for (const engine of testEngines()) {
  describe(`health probes and the root document (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    /** The same app over other deps: the probes read them at request time. */
    const appWith = (overrides: { hostReadiness?: () => string | null; db?: SqlClient }) =>
      createApp({ ...h.deps, ...overrides });

    it('GET /healthz answers {status:"ok"} with no credential and nothing else', async () => {
      const response = await h.call('GET', '/healthz');
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { status: 'ok' });
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
      for (const name of ['server', 'x-powered-by', 'x-version'])
        assert.equal(response.headers.get(name), null);
    });

    it('GET /readyz answers {status:"ready"} once migrated, with no credential', async () => {
      const response = await h.call('GET', '/readyz');
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { status: 'ready' });
    });

    it('GET /readyz is 503 while the host starts or shuts down, naming only that', async () => {
      for (const reason of ['starting', 'shutting_down']) {
        const response = await appWith({ hostReadiness: () => reason }).request('/readyz');
        assert.equal(response.status, 503);
        const problem = await json(response);
        assert.equal(problem['code'], 'service_unavailable');
        assert.equal(problem['detail'], `Not ready: ${reason}.`);
        assert.equal(response.headers.get('retry-after'), '1');
      }
      assert.equal((await appWith({ hostReadiness: () => null }).request('/readyz')).status, 200);
    });

    it('GET /readyz is 503 when the database fails or hangs, without its error', async () => {
      const failing: SqlClient = {
        ...h.deps.db,
        query: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2')),
      };
      const failed = await appWith({ db: failing }).request('/readyz');
      assert.equal(failed.status, 503);
      const text = await failed.text();
      assert.match(text, /Not ready: database_unreachable/);
      assert.doesNotMatch(text, /ECONNREFUSED|10\.0\.0\.7|hunter2/);

      const hanging: SqlClient = { ...h.deps.db, query: () => new Promise(() => {}) };
      const started = performance.now();
      const hung = await appWith({ db: hanging }).request('/readyz');
      assert.equal(hung.status, 503);
      assert.ok(performance.now() - started < 5000, 'a hanging database does not hang the probe');
    });

    it('GET /readyz is 503 while a migration is missing', async () => {
      const [latest] = await h.deps.db.query<{ version: number; name: string }>(
        'select version, name from schema_migrations order by version desc limit 1',
      );
      assert.ok(latest);
      await h.deps.db.query('delete from schema_migrations where version = $1', [latest.version]);
      try {
        const response = await h.call('GET', '/readyz');
        assert.equal(response.status, 503);
        assert.equal((await json(response))['detail'], 'Not ready: migrations_pending.');
      } finally {
        await h.deps.db.query('insert into schema_migrations (version, name) values ($1, $2)', [
          latest.version,
          latest.name,
        ]);
      }
      assert.equal((await h.call('GET', '/readyz')).status, 200);
    });

    it('GET / points to the docs, the OpenAPI document and the console, as JSON or as a page', async () => {
      const response = await h.call('GET', '/');
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), {
        name: 'id-verify',
        links: { docs: '/docs', openapi: '/v1/openapi.json', console: '/console' },
      });
      assert.equal(response.headers.get('vary'), 'accept');
      const page = await h.call('GET', '/', { headers: { accept: 'text/html,application/xhtml+xml' } });
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const html = await page.text();
      for (const link of ['/docs', '/v1/openapi.json', '/console'])
        assert.ok(html.includes(`href="${link}"`));
    });

    it('HEAD works on the probes (load balancers use it)', async () => {
      assert.equal((await h.call('HEAD', '/healthz')).status, 200);
      assert.equal((await h.call('HEAD', '/readyz')).status, 200);
    });
  });
}
