// The demo shop's routes (server/http/pages/demo/register-demo.ts) on the real app and database, with the real shop
// backend (demo/tenant-backend.ts) calling that app in-process: what a development server serves at
// /demo, what it answers before the backend runs, and that a production server has no /demo at all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../../server/app.ts';
import type { WidgetAssets } from '../../../server/static-assets.ts';
import { createDemoHost, type DemoHost } from '../../../server/http/pages/demo/demo-host.ts';
import { DEMO_CSP } from '../../../server/http/pages/demo/demo-csp.ts';
import { createTenantBackend } from '../../../demo/tenant-backend.ts';
import { createHarness, TEST_BASE_URL, type TestHarness } from '../support/test-app.ts';

const PAGE =
  '<!doctype html><html lang="en"><title>Acme Shop</title><script type="module" src="/demo/assets/index-abc123.js"></script></html>';

function builtAssets(files: Record<string, string>): WidgetAssets {
  return {
    get: async (path) => (path in files ? new Response(files[path]) : null),
  };
}

describe('the demo shop routes', () => {
  let harness: TestHarness;
  let host: DemoHost;
  let app: ReturnType<typeof createApp>;
  const request = (path: string, init?: RequestInit) =>
    Promise.resolve(app.request(`${TEST_BASE_URL}${path}`, init));

  before(async () => {
    harness = await createHarness('pglite');
    host = createDemoHost({
      assets: builtAssets({ 'index.html': PAGE, 'assets/index-abc123.js': 'console.log(1)' }),
      // The shop backend's API calls go to this app in-process, as they go over the socket on Node.
      loadBackend: async () => ({
        createTenantBackend: (options) =>
          createTenantBackend({
            ...options,
            fetch: async (input, init) => app.fetch(new Request(input, init)),
          }),
      }),
    });
    app = createApp({ ...harness.deps, demo: host });
  });
  after(() => harness.close());

  it('serves the page under a strict CSP, never cached, camera for itself only', async () => {
    const response = await request('/demo/');
    assert.equal(response.status, 200);
    assert.equal(await response.text(), PAGE);
    assert.equal(response.headers.get('content-security-policy'), DEMO_CSP);
    assert.match(DEMO_CSP, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(DEMO_CSP, /'unsafe-inline'|'unsafe-eval'/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(response.headers.get('permissions-policy') ?? '', /camera=\(self\)/);
    assert.equal((await request('/demo')).headers.get('location'), '/demo/');
  });

  it('serves hashed assets for a year and nothing outside them (the backend bundle included)', async () => {
    const asset = await request('/demo/assets/index-abc123.js');
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
    assert.equal((await request('/demo/assets/..%2Fserver%2Ftenant-backend.js')).status, 404);
    assert.equal((await request('/demo/assets/missing.js')).status, 404);
  });

  it('answers 503 for the shop backend until it is started, then creates sessions with the tenant key', async () => {
    const early = await request('/demo/tenant/api/verifications', { method: 'POST', body: '{}' });
    assert.equal(early.status, 503);

    const state = await host.start({
      apiBase: TEST_BASE_URL,
      pageUrl: `${TEST_BASE_URL}/demo/`,
      apiKey: harness.tenant.sandboxKey,
    });
    assert.deepEqual(state, { kind: 'running' });
    const created = await request('/demo/tenant/api/verifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'customer-1', outcome: 'approved' }),
    });
    assert.equal(created.status, 201);
    const { session_id } = (await created.json()) as { session_id: string };
    const session = (await (
      await harness.call('GET', `/v1/sessions/${session_id}`, { key: harness.tenant.sandboxKey })
    ).json()) as Record<string, unknown>;
    assert.equal(session['redirect_url'], `${TEST_BASE_URL}/demo/`);
    assert.equal(session['external_user_reference'], 'customer-1');
    // The webhook endpoint the backend registered, and an unsigned delivery refused there.
    const hooks = (await (
      await harness.call('GET', '/v1/webhooks', { key: harness.tenant.sandboxKey })
    ).json()) as { data: { url: string }[] };
    assert.deepEqual(
      hooks.data.map((hook) => hook.url),
      [`${TEST_BASE_URL}/demo/tenant/webhooks/id-verify`],
    );
    const forged = await request('/demo/tenant/webhooks/id-verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': '0'.repeat(64) },
      body: JSON.stringify({ event: 'session.approved', event_id: 'evt_1', session_id }),
    });
    assert.equal(forged.status, 400);
  });

  it('says why when the sandbox key is unknown', async () => {
    const orphan = createDemoHost({
      assets: builtAssets({}),
      loadBackend: () => Promise.reject(new Error('unused')),
    });
    const state = await orphan.start({
      apiBase: TEST_BASE_URL,
      pageUrl: `${TEST_BASE_URL}/demo/`,
      apiKey: null,
    });
    assert.equal(state.kind, 'unavailable');
    const answer = await orphan.tenant(new Request(`${TEST_BASE_URL}/api/verifications`));
    assert.equal(answer.status, 503);
    assert.match(((await answer.json()) as { reason: string }).reason, /credentials\.json/);
  });

  it('has no /demo routes without deps.demo (a production server)', async () => {
    const production = createApp({ ...harness.deps, config: { ...harness.deps.config, mode: 'production' } });
    for (const path of ['/demo/', '/demo/tenant/api/verifications']) {
      assert.equal((await production.request(`${TEST_BASE_URL}${path}`)).status, 404, path);
    }
  });
});
