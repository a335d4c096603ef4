import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import { DEFAULT_CONSOLE_DIR, nodeConsoleAssets } from '../../../server/runtime/node/node-console-assets.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { gzipBodyText } from '../support/gzip-body.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>id-verify console</title>
<script type="module" crossorigin src="/console/assets/index-abc123.js"></script>
<link rel="stylesheet" href="/console/assets/index-def456.css"></head><body><idv-console></idv-console></body></html>`;
const SCRIPT = 'customElements.define("idv-console", class extends HTMLElement {});'.repeat(20);

/** A console build in a temporary directory, as `vite build --mode console` lays it out. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idv-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dir, 'assets', 'index-def456.css'), 'body{margin:0}');
  return dir;
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('the console served at /console', () => {
  let h: TestHarness;
  let dir: string;
  before(async () => {
    h = await createHarness('pglite');
    dir = fakeBuild();
    h.deps.consoleAssets = nodeConsoleAssets(dir);
  });
  after(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every /console path with index.html under a strict CSP', async () => {
    for (const path of [
      '/console',
      '/console/',
      '/console/login',
      '/console/sessions/sess_abc?status=approved',
    ]) {
      const response = await h.app.request(path);
      assert.equal(response.status, 200, path);
      assert.equal(await response.text(), PAGE);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|nonce-/);
      const policy = directives(csp);
      assert.deepEqual(policy.get('default-src'), ["'none'"]);
      assert.deepEqual(policy.get('script-src'), ["'self'"]);
      assert.deepEqual(policy.get('style-src'), ["'self'"]);
      assert.deepEqual(policy.get('connect-src'), ["'self'"]);
      assert.deepEqual(policy.get('img-src'), ["'self'", 'blob:']);
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
    }
  });

  it('serves hashed assets immutable, brotli- or gzip-encoded when the browser accepts it', async () => {
    const plain = await h.app.request('/console/assets/index-abc123.js');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(plain.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(await plain.text(), SCRIPT);

    // No `.br` twin in this build: brotli is compressed once in memory, and preferred to gzip.
    const brotli = await h.app.request('/console/assets/index-abc123.js', {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    assert.equal(brotli.headers.get('content-encoding'), 'br');
    const brotliBytes = Buffer.from(await brotli.arrayBuffer());
    // Through the mock transport `fetch` has decoded the body already, as a browser would.
    const decoded =
      process.env['IDV_TEST_TRANSPORT'] === 'mock' ? brotliBytes : brotliDecompressSync(brotliBytes);
    assert.equal(decoded.toString(), SCRIPT);

    const zipped = await h.app.request('/console/assets/index-abc123.js', {
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(zipped.headers.get('content-encoding'), 'gzip');
    assert.equal(zipped.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(zipped.headers.get('vary'), 'accept-encoding');
    assert.equal(await gzipBodyText(zipped), SCRIPT);

    const refused = await h.app.request('/console/assets/index-abc123.js', {
      headers: { 'accept-encoding': 'gzip;q=0' },
    });
    assert.equal(refused.headers.get('content-encoding'), null);

    const css = await h.app.request('/console/assets/index-def456.css', {
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(css.status, 200);
    assert.equal(css.headers.get('content-encoding'), null, 'no twin, so the plain file');
    assert.equal(await css.text(), 'body{margin:0}');
  });

  it('never falls back to the page for a missing asset, a twin or a path that climbs out', async () => {
    for (const path of [
      '/console/assets/missing-000.js',
      '/console/assets/index-abc123.js.gz',
      '/console/assets/..%2Findex.html',
      '/console/assets/sub/index-abc123.js',
    ]) {
      const response = await h.app.request(path);
      assert.equal(response.status, 404, path);
      assert.notEqual(response.headers.get('content-type'), 'text/html; charset=utf-8', path);
    }
  });

  it('answers 503 with a problem document before the console is built', async () => {
    const saved = h.deps.consoleAssets;
    try {
      h.deps.consoleAssets = nodeConsoleAssets(join(dir, 'not-built'));
      const page = await h.app.request('/console/dashboard');
      assert.equal(page.status, 503);
      assert.equal(page.headers.get('content-type'), 'application/problem+json');
      const problem = (await page.json()) as Record<string, unknown>;
      assert.equal(problem['code'], 'service_unavailable');
      assert.match(String(problem['detail']), /vite build --mode console/);
      delete h.deps.consoleAssets;
      assert.equal((await h.app.request('/console/assets/index-abc123.js')).status, 503);
    } finally {
      h.deps.consoleAssets = saved;
    }
  });
});

describe('the built console page (dist/console, when built)', () => {
  const page = join(DEFAULT_CONSOLE_DIR, 'index.html');
  it('has no inline script or style, and only same-origin /console/assets/ references', {
    skip: !existsSync(page),
  }, () => {
    const html = readFileSync(page, 'utf8');
    for (const tag of html.match(/<script\b[^>]*>/g) ?? [])
      assert.match(tag, /\ssrc="\/console\/assets\//, tag);
    assert.doesNotMatch(html, /<script\b[^>]*>[^<\s]/, 'an inline script body');
    assert.doesNotMatch(html, /<style\b|\sstyle=/, 'inline style');
    for (const href of html.match(/\s(?:href|src)="[^"]+"/g) ?? [])
      assert.match(href, /="\/console\/assets\//, href);
  });
});
