import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { WidgetAssets } from '../../../server/static-assets.ts';
import { updateTenant } from '../../../server/store/tenants.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { gzipBodyText } from '../support/gzip-body.ts';

const PAGE = `<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__" />
<script type="module" src="/hosted/assets/index-abc.js"></script>
<script type="module">window.__vite_is_modern_browser=true</script></head>
<body><id-verify></id-verify><script nomodule>/* safari */</script></body></html>`;

function fakeAssets(): WidgetAssets {
  const files: Record<string, string> = {
    'hosted/index.html': PAGE,
    'hosted/assets/index-abc.js': 'console.log(1)',
    'sdk/id-verify.js': 'customElements.define("id-verify", class extends HTMLElement {})',
    'sdk/chunks/fr-xyz.js': 'export const messages = {}',
    'sdk/vision/human-1.0.0/human.esm.js': 'export class Human {}',
    'sdk/vision/human-1.0.0/models/blazeface.bin': 'weights',
  };
  return {
    async get(path) {
      if (path === 'sdk/vision/human-1.0.0/human.esm.js.gz') {
        return new Response(gzipSync(files['sdk/vision/human-1.0.0/human.esm.js'] ?? ''), {
          headers: { 'content-type': 'text/javascript' },
        });
      }
      const body = files[path];
      return body === undefined ? null : new Response(body, { headers: { 'content-type': 'text/plain' } });
    },
  };
}

for (const engine of testEngines()) {
  describe(`hosted page and script-tag routes (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
      h.deps.widgetAssets = fakeAssets();
    });
    after(() => h.close());

    async function createSession(body: Record<string, unknown> = {}) {
      const created = await h.call('POST', '/v1/sessions', {
        key: h.tenant.sandboxKey,
        body: { country: 'FRA', flow: 'user', tier: 'tier2', ...body },
      });
      assert.equal(created.status, 201);
      const session = await json(created);
      return { id: session['session_id'] as string, path: new URL(session['verify_url']).pathname };
    }

    it('serves the page under a strict CSP with a fresh nonce on every script', async () => {
      const { path } = await createSession();
      const first = await h.app.request(path);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(first.headers.get('cache-control'), 'no-store');
      const csp = first.headers.get('content-security-policy') ?? '';
      assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'/);
      // WebAssembly compilation only (the liveness step's face model), never eval().
      assert.match(csp, /script-src 'self' 'nonce-[^']+' 'wasm-unsafe-eval';/);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /frame-ancestors 'none'/);
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce && nonce.length >= 22);
      const html = await first.text();
      assert.equal(html.split(`<script nonce="${nonce}"`).length - 1, 3, 'every script carries the nonce');
      assert.match(html, new RegExp(`content="${nonce.replace(/[+/]/g, '\\$&')}"`));
      const second = await h.app.request(path);
      assert.notEqual(
        /'nonce-([^']+)'/.exec(second.headers.get('content-security-policy') ?? '')?.[1],
        nonce,
      );
    });

    it("allows framing only by the tenant's allowed_origins", async () => {
      await updateTenant(
        h.deps.db,
        h.tenant.tenantId,
        { allowed_origins: ['https://shop.example', 'javascript:alert(1)'] },
        h.clock.now(),
      );
      try {
        const { path } = await createSession();
        const csp = (await h.app.request(path)).headers.get('content-security-policy') ?? '';
        assert.match(csp, /frame-ancestors https:\/\/shop\.example(;|$)/);
        assert.doesNotMatch(csp, /javascript/);
      } finally {
        await updateTenant(h.deps.db, h.tenant.tenantId, { allowed_origins: [] }, h.clock.now());
      }
    });

    it('redirects a finished session to redirect_url with session_id and status', async () => {
      const { id, path } = await createSession({ redirect_url: 'https://shop.example/kyc/done?order=7' });
      const cancelled = await h.call('DELETE', `/v1/sessions/${id}`, { key: h.tenant.sandboxKey });
      assert.equal(cancelled.status, 200);
      const response = await h.app.request(path);
      assert.equal(response.status, 303);
      const location = new URL(response.headers.get('location') ?? '');
      assert.equal(location.origin + location.pathname, 'https://shop.example/kyc/done');
      assert.equal(location.searchParams.get('order'), '7');
      assert.equal(location.searchParams.get('session_id'), id);
      assert.equal(location.searchParams.get('status'), 'cancelled');
    });

    it('shows the page (which explains the outcome) for a finished session without redirect_url', async () => {
      const { id, path } = await createSession();
      await h.call('DELETE', `/v1/sessions/${id}`, { key: h.tenant.sandboxKey });
      assert.equal((await h.app.request(path)).status, 200);
    });

    it('serves the page for an unknown link too, so the widget can explain it', async () => {
      const response = await h.app.request('/verify/NotARealTokenButRightShape1234');
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    });

    it('serves the script-tag bundle with CORS and a short cache, chunks immutable', async () => {
      const entry = await h.app.request('/sdk/id-verify.js');
      assert.equal(entry.status, 200);
      assert.equal(entry.headers.get('access-control-allow-origin'), '*');
      assert.equal(entry.headers.get('cache-control'), 'public, max-age=300');
      const chunk = await h.app.request('/sdk/chunks/fr-xyz.js');
      assert.match(chunk.headers.get('cache-control') ?? '', /immutable/);
      assert.equal((await h.app.request('/hosted/assets/index-abc.js')).status, 200);
    });

    it('serves the face model under /sdk/vision gzipped when accepted, cached for a year, with CORS', async () => {
      const url = '/sdk/vision/human-1.0.0/human.esm.js';
      const gzipped = await h.app.request(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(gzipped.status, 200);
      assert.equal(gzipped.headers.get('content-encoding'), 'gzip');
      assert.equal(gzipped.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(gzipped.headers.get('access-control-allow-origin'), '*');
      assert.equal(gzipped.headers.get('vary'), 'accept-encoding');
      assert.equal(gzipped.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(await gzipBodyText(gzipped), 'export class Human {}');

      for (const accept of [undefined, 'identity', 'gzip;q=0']) {
        const plain = await h.app.request(url, accept ? { headers: { 'accept-encoding': accept } } : {});
        assert.equal(plain.headers.get('content-encoding'), null, String(accept));
        assert.equal(await plain.text(), 'export class Human {}');
      }
      // Weights have no gzip twin: sent as they are, still immutable.
      const weights = await h.app.request('/sdk/vision/human-1.0.0/models/blazeface.bin', {
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(weights.headers.get('content-encoding'), null);
      assert.match(weights.headers.get('cache-control') ?? '', /immutable/);
      // The `.gz` twins are not URLs, and nothing else is there.
      assert.equal((await h.app.request(`${url}.gz`)).status, 404);
      assert.equal((await h.app.request('/sdk/vision/human-1.0.0/models/faceres.json')).status, 404);
    });

    it('refuses paths that climb out of the asset directories', async () => {
      for (const path of [
        '/sdk/..%2Fhosted%2Findex.html',
        '/sdk/chunks/../../hosted/index.html',
        '/hosted/assets/x/..',
        '/sdk/vision/..%2F..%2Fhosted%2Findex.html',
      ]) {
        const response = await h.app.request(path);
        assert.equal(response.status, 404, path);
      }
    });

    it('answers /favicon.ico with an empty 204, so the page logs no 404', async () => {
      const response = await h.call('GET', '/favicon.ico');
      assert.equal(response.status, 204);
      assert.equal((await response.arrayBuffer()).byteLength, 0);
    });

    it('answers 503 when the host has no built widget', async () => {
      const saved = h.deps.widgetAssets;
      delete h.deps.widgetAssets;
      try {
        assert.equal((await h.app.request('/sdk/id-verify.js')).status, 503);
      } finally {
        h.deps.widgetAssets = saved;
      }
    });
  });
}
