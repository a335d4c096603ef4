import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nodeAssets } from '../../../server/runtime/node/node-assets.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

// Every operation the seed names, with the method it must be served under (docs/interface.md §5).
const SEED_OPERATIONS: [string, string][] = [
  ['post', '/v1/console/login'],
  ['get', '/v1/me'],
  ['get', '/v1/api-keys'],
  ['post', '/v1/api-keys'],
  ['post', '/v1/sessions'],
  ['get', '/v1/sessions'],
  ['get', '/v1/sessions/{id}'],
  ['delete', '/v1/sessions/{id}'],
  ['get', '/v1/sessions/{id}/result'],
  ['get', '/v1/identities/{id}'],
  ['post', '/v1/identities/{identity_id}/reverification-requests'],
  ['post', '/v1/webhooks'],
];

for (const engine of testEngines()) {
  describe(`API reference and rate limits (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine, { config: { rateLimits: { reads: 8, writes: 4 } } });
      h.deps.assets = nodeAssets();
    });
    after(() => h.close());

    it('serves an OpenAPI 3.1 document describing every seed operation and its problem responses', async () => {
      const response = await h.call('GET', '/v1/openapi.json');
      assert.equal(response.status, 200);
      const document = await json(response);
      assert.match(document['openapi'], /^3\.1\./);
      for (const [method, path] of SEED_OPERATIONS) {
        const operation = document['paths'][path]?.[method];
        assert.ok(operation, `${method.toUpperCase()} ${path} is missing from the OpenAPI document`);
        assert.ok(operation['operationId'], `${method.toUpperCase()} ${path} has no operationId`);
      }
      const create = document['paths']['/v1/sessions']['post'];
      assert.ok(create['responses']['400']['content']['application/problem+json']);
      assert.ok(document['components']['securitySchemes']['ApiKey']);
    });

    it('renders /docs from a local bundle under a CSP that allows no other origin', async () => {
      const page = await h.call('GET', '/docs');
      assert.equal(page.status, 200);
      const html = await page.text();
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /https?:/, 'the docs page must not load from another origin');
      const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]!);
      assert.deepEqual(scripts, ['/docs/assets/api-reference.js']);
      assert.doesNotMatch(html, /cdn|jsdelivr|unpkg/i);
      const bundle = await h.call('GET', '/docs/assets/api-reference.js');
      assert.equal(bundle.status, 200);
      assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
      assert.ok((await bundle.arrayBuffer()).byteLength > 100_000, 'expected the real Scalar bundle');
    });

    it('links every problem type to a page that explains it', async () => {
      const problem = await json(
        await h.call('GET', '/v1/sessions/sess_nope', { key: h.tenant.productionKey }),
      );
      const path = new URL(problem['type']).pathname;
      const page = await h.call('GET', path);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /resource_missing/);
    });

    it('counts reads per key in a 60 s window, says so in headers, and answers 429 with retry-after', async () => {
      // Production key: 8 reads per window; sandbox keys get a quarter.
      const key = h.tenant.productionKey;
      h.clock.advance(60_000); // a fresh window: earlier tests in this file used the same key
      let last: Response | undefined;
      for (let i = 0; i < 8; i++) {
        last = await h.call('GET', '/v1/sessions', { key });
        assert.equal(last.status, 200);
      }
      assert.equal(last!.headers.get('ratelimit-policy'), '"read";q=8;w=60');
      assert.match(last!.headers.get('ratelimit') ?? '', /^"read";r=0;t=\d+$/);
      const limited = await h.call('GET', '/v1/sessions', { key });
      assert.equal(limited.status, 429);
      assert.equal((await json(limited))['code'], 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      // Another key of the same tenant has its own budget; the window resets after 60 s.
      assert.equal((await h.call('GET', '/v1/sessions', { key: h.other.productionKey })).status, 200);
      h.clock.advance(60_000);
      assert.equal((await h.call('GET', '/v1/sessions', { key })).status, 200);
    });

    it('gives sandbox keys a quarter of the production budget', async () => {
      const key = h.tenant.sandboxKey;
      h.clock.advance(60_000);
      const body = { country: 'DEU', flow: 'user', tier: 'tier1' };
      assert.equal((await h.call('POST', '/v1/sessions', { key, body })).status, 201);
      const limited = await h.call('POST', '/v1/sessions', { key, body });
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('ratelimit-policy'), '"write";q=1;w=60');
    });
  });
}
