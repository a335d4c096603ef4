import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import {
  acceptableCodings,
  cacheControlForName,
  IMMUTABLE,
  ifNoneMatchMatches,
  REVALIDATE,
  serveAsset,
  strongEtag,
} from '../../../server/http/static-asset.ts';
import { nodeAssets } from '../../../server/runtime/node/node-assets.ts';
import { nodeConsoleAssets } from '../../../server/runtime/node/node-console-assets.ts';
import { nodeWidgetAssets } from '../../../server/runtime/node/node-widget-assets.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';

describe('content-coding negotiation (RFC 9110 §12.5.3)', () => {
  const table: [string | null, string[]][] = [
    // What browsers send: brotli first.
    ['gzip, deflate, br, zstd', ['br', 'gzip', 'identity']],
    ['br', ['br', 'identity']],
    ['gzip', ['gzip', 'identity']],
    ['x-gzip', ['gzip', 'identity']],
    ['identity', ['identity']],
    ['deflate', ['identity']],
    // q-values: higher wins, 0 refuses.
    ['br;q=0.5, gzip', ['gzip', 'br', 'identity']],
    ['gzip;q=0', ['identity']],
    ['br;q=0, gzip', ['gzip', 'identity']],
    ['GZIP;Q=0.8, BR;Q=0.9', ['br', 'gzip', 'identity']],
    ['br;q=abc', ['identity']],
    // `*` stands for every coding not named.
    ['*', ['br', 'gzip', 'identity']],
    ['*;q=0.5, gzip', ['gzip', 'br', 'identity']],
    ['br;q=0, *', ['gzip', 'identity']],
    // Identity refused: still the last resort, so the client gets the file rather than nothing.
    ['br, identity;q=0', ['br', 'identity']],
    ['*;q=0', ['identity']],
    // Absent: identity only (curl without --compressed); empty: no coding wanted.
    [null, ['identity']],
    ['', ['identity']],
  ];
  for (const [header, expected] of table) {
    it(`${JSON.stringify(header)} → ${expected.join(' > ')}`, () => {
      assert.deepEqual(acceptableCodings(header), expected);
    });
  }
});

describe('cache policy by file name', () => {
  for (const name of [
    'index-Dca1x2MZ.js',
    'chunks/face-guide-BCPgWC5r.js',
    'polyfills-legacy-BXCC1gYw.js.map',
    'index-LoJmeRvy.css',
    'ar-DaSWn9BM.js',
    'dist-Dh8KAc9e.js',
  ]) {
    it(`${name}: content-hashed, immutable`, () => assert.equal(cacheControlForName(name), IMMUTABLE));
  }
  for (const name of [
    'id-verify.js',
    'id-verify.js.map',
    'api-reference.js',
    'index.html',
    'x-language.js',
  ]) {
    it(`${name}: stable name, revalidated`, () => assert.equal(cacheControlForName(name), REVALIDATE));
  }
});

describe('If-None-Match (RFC 9110 §13.1.2, weak comparison)', () => {
  const etag = '"abc"';
  for (const [header, expected] of [
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", W/"abc"', true],
    ['*', true],
    ['"abd"', false],
    ['abc', false],
    ['', false],
  ] as const) {
    it(`${JSON.stringify(header)} ${expected ? 'matches' : 'does not match'}`, () => {
      assert.equal(ifNoneMatchMatches(header, etag), expected);
    });
  }
});

describe('serveAsset', () => {
  const text = 'export const greeting = "hello";\n'.repeat(50);
  const variants: Record<string, Uint8Array<ArrayBuffer>> = {
    'a.js': new Uint8Array(Buffer.from(text)),
    'a.js.br': new Uint8Array(brotliCompressSync(text)),
    'a.js.gz': new Uint8Array(gzipSync(text)),
  };
  let loads = 0;
  // A loader that gives no ETag: serveAsset computes it from the bytes.
  const load = async (name: string) => {
    loads += 1;
    const bytes = variants[name];
    return bytes ? new Response(bytes, { headers: { 'content-type': 'text/javascript' } }) : null;
  };
  const get = (headers: Record<string, string> = {}) =>
    serveAsset(new Request('http://x/a.js', { headers }), load, 'a.js', {
      cacheControl: IMMUTABLE,
      headers: { 'access-control-allow-origin': '*' },
    });

  it('sends the best accepted variant with its coding, vary and a strong ETag of its bytes', async () => {
    for (const [accept, coding, name] of [
      ['gzip, deflate, br', 'br', 'a.js.br'],
      ['gzip', 'gzip', 'a.js.gz'],
      [undefined, null, 'a.js'],
    ] as const) {
      const response = (await get(accept ? { 'accept-encoding': accept } : {}))!;
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-encoding'), coding);
      assert.equal(response.headers.get('vary'), 'accept-encoding');
      assert.equal(response.headers.get('cache-control'), IMMUTABLE);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal(response.headers.get('content-type'), 'text/javascript');
      assert.equal(response.headers.get('etag'), await strongEtag(variants[name]!));
      assert.match(response.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]{22}"$/, 'strong, not W/');
      assert.deepEqual(new Uint8Array(await response.arrayBuffer()), variants[name]);
    }
  });

  it('gives each variant its own ETag', async () => {
    const tags = await Promise.all(
      ['br', 'gzip', 'identity'].map(async (accept) =>
        (await get({ 'accept-encoding': accept }))!.headers.get('etag'),
      ),
    );
    assert.equal(new Set(tags).size, 3, tags.join(' '));
  });

  it('answers a matching If-None-Match with 304, no body and the same validators and cache headers', async () => {
    const first = (await get({ 'accept-encoding': 'br' }))!;
    const etag = first.headers.get('etag')!;
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = (await get({ 'accept-encoding': 'br', 'if-none-match': condition }))!;
      assert.equal(again.status, 304, condition);
      assert.equal(await again.text(), '');
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('cache-control'), IMMUTABLE);
      assert.equal(again.headers.get('vary'), 'accept-encoding');
      assert.equal(again.headers.get('access-control-allow-origin'), '*');
    }
    // The brotli ETag does not validate the gzip variant: that one is sent in full.
    const gzip = (await get({ 'accept-encoding': 'gzip', 'if-none-match': etag }))!;
    assert.equal(gzip.status, 200);
    assert.equal(gzip.headers.get('content-encoding'), 'gzip');
  });

  it('is null when the loader has no such file, after asking only for the variants accepted', async () => {
    loads = 0;
    const missing = await serveAsset(
      new Request('http://x/', { headers: { 'accept-encoding': 'gzip' } }),
      load,
      'b.js',
      {
        cacheControl: IMMUTABLE,
      },
    );
    assert.equal(missing, null);
    assert.equal(loads, 2, 'b.js.gz, then b.js; never b.js.br');
  });
});

/** A raw HTTP GET: the bytes as they cross the wire, undecoded. */
function rawGet(
  server: Server,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function decode(response: { headers: IncomingHttpHeaders; body: Buffer }): Buffer {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.body);
  if (coding === 'gzip') return gunzipSync(response.body);
  assert.equal(coding, undefined);
  return response.body;
}

describe('asset routes over HTTP (a real app and node:http)', () => {
  const ENTRY = 'customElements.define("id-verify", class extends HTMLElement {});\n'.repeat(40);
  const CHUNK = 'export const messages = { hello: "bonjour" };\n'.repeat(40);
  const HOSTED = 'import "./dist-Dh8KAc9e.js"; console.log("hosted page");\n'.repeat(40);
  const CONSOLE = 'customElements.define("idv-console", class extends HTMLElement {});\n'.repeat(40);
  // A `.br` twin the "build" wrote at quality 1: the route must send exactly these bytes, not recompress.
  const CHUNK_BR_FROM_BUILD = brotliCompressSync(CHUNK, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  const PAGE = `<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__" />
<script type="module" src="/hosted/assets/index-Dca1x2MZ.js"></script></head><body></body></html>`;

  let h: TestHarness;
  let dir: string;
  let server: Server;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'idv-static-'));
    for (const sub of ['sdk/chunks', 'hosted/assets', 'console/assets'])
      mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, 'sdk/id-verify.js'), ENTRY);
    writeFileSync(join(dir, 'sdk/id-verify.js.map'), JSON.stringify({ version: 3, sources: [ENTRY] }));
    writeFileSync(join(dir, 'sdk/chunks/fr-Bq3xZ9aK.js'), CHUNK);
    writeFileSync(join(dir, 'sdk/chunks/fr-Bq3xZ9aK.js.br'), CHUNK_BR_FROM_BUILD);
    writeFileSync(join(dir, 'hosted/index.html'), PAGE);
    writeFileSync(join(dir, 'hosted/assets/index-Dca1x2MZ.js'), HOSTED);
    writeFileSync(join(dir, 'console/index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'console/assets/index-LoJmeRvy.js'), CONSOLE);
    h = await createHarness('pglite');
    h.deps.widgetAssets = nodeWidgetAssets(dir);
    h.deps.consoleAssets = nodeConsoleAssets(join(dir, 'console'));
    h.deps.assets = nodeAssets();
    server = createServer(getRequestListener(h.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the script-tag entry on a short cache with an ETag, its source map revalidated, chunks immutable', async () => {
    const entry = await rawGet(server, '/sdk/id-verify.js', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(entry.status, 200);
    assert.equal(entry.headers['content-encoding'], 'br', 'no twin on disk: compressed once in memory');
    assert.equal(decode(entry).toString(), ENTRY);
    assert.equal(entry.headers['cache-control'], 'public, max-age=300');
    assert.equal(entry.headers['access-control-allow-origin'], '*');
    assert.ok(entry.headers.etag);
    const map = await rawGet(server, '/sdk/id-verify.js.map');
    assert.equal(map.headers['cache-control'], REVALIDATE);
    const chunk = await rawGet(server, '/sdk/chunks/fr-Bq3xZ9aK.js', { 'accept-encoding': 'br' });
    assert.equal(chunk.headers['cache-control'], IMMUTABLE);
    assert.deepEqual(chunk.body, CHUNK_BR_FROM_BUILD, "the build's twin, as it is on disk");
    const hosted = await rawGet(server, '/hosted/assets/index-Dca1x2MZ.js', { 'accept-encoding': 'gzip' });
    assert.equal(hosted.headers['content-encoding'], 'gzip');
    assert.equal(hosted.headers['cache-control'], IMMUTABLE);
    assert.equal(decode(hosted).toString(), HOSTED);
    const consoleAsset = await rawGet(server, '/console/assets/index-LoJmeRvy.js', {
      'accept-encoding': 'br',
    });
    assert.equal(consoleAsset.headers['content-encoding'], 'br');
    assert.equal(consoleAsset.headers['cache-control'], IMMUTABLE);
    assert.equal(decode(consoleAsset).toString(), CONSOLE);
  });

  it('revalidates with 304 over HTTP, with no body', async () => {
    const first = await rawGet(server, '/sdk/id-verify.js', { 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    const again = await rawGet(server, '/sdk/id-verify.js', {
      'accept-encoding': 'gzip',
      'if-none-match': `W/${etag}`,
    });
    assert.equal(again.status, 304);
    assert.equal(again.body.byteLength, 0);
    assert.equal(again.headers.etag, etag);
    assert.equal(again.headers['cache-control'], 'public, max-age=300');
    assert.equal(again.headers['access-control-allow-origin'], '*');
  });

  it('never serves a twin by its own name', async () => {
    for (const path of [
      '/sdk/chunks/fr-Bq3xZ9aK.js.br',
      '/sdk/id-verify.js.gz',
      '/console/assets/index-LoJmeRvy.js.br',
    ]) {
      assert.equal((await rawGet(server, path)).status, 404, path);
    }
  });

  it('keeps the HTML pages that carry a CSP nonce, and the console page, on no-store', async () => {
    const created = await h.call('POST', '/v1/sessions', {
      key: h.tenant.sandboxKey,
      body: { country: 'FRA', flow: 'user', tier: 'tier2' },
    });
    const path = new URL((await json(created))['verify_url']).pathname;
    const hosted = await rawGet(server, path, { 'accept-encoding': 'br' });
    assert.equal(hosted.status, 200);
    assert.equal(hosted.headers['cache-control'], 'no-store');
    assert.equal(hosted.headers.etag, undefined);
    assert.match(String(hosted.headers['content-security-policy']), /'nonce-/);
    const page = await rawGet(server, '/console/sessions', { 'accept-encoding': 'br' });
    assert.equal(page.status, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
  });

  it('sends the /docs reference script brotli-encoded, decoding to the bundle in node_modules', async () => {
    const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
    const original = readFileSync(
      `${entry.slice(0, entry.lastIndexOf('/dist/'))}/dist/browser/standalone.js`,
    );
    const started = performance.now();
    const br = await rawGet(server, '/docs/assets/api-reference.js', { 'accept-encoding': 'br' });
    const firstMs = performance.now() - started;
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['cache-control'], REVALIDATE);
    assert.ok(br.headers.etag);
    assert.ok(decode(br).equals(original), 'decodes to the original bytes');
    assert.ok(br.body.byteLength < original.byteLength / 3, `${br.body.byteLength} bytes`);
    const gzip = await rawGet(server, '/docs/assets/api-reference.js', { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(decode(gzip).equals(original));
    const plain = await rawGet(server, '/docs/assets/api-reference.js');
    assert.equal(plain.body.byteLength, original.byteLength);
    const revalidated = await rawGet(server, '/docs/assets/api-reference.js', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    assert.equal(revalidated.status, 304);
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
    console.log(
      `/docs/assets/api-reference.js transfer: identity ${kb(plain.body.byteLength)}, gzip ${kb(gzip.body.byteLength)}, ` +
        `br ${kb(br.body.byteLength)} (first br request, compressing included: ${firstMs.toFixed(0)} ms)`,
    );
  });
});
