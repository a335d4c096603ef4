// Every response carries the headers it owes (API.md §1, §10): `x-request-id` everywhere; on `/v1/…` the
// never-cache / never-sniff / never-frame headers; after the rate limiter, `ratelimit` and
// `ratelimit-policy`. request-envelope.ts builds JSON answers with them in one plain object and completes
// every other response afterwards (issue #13), so both kinds are checked, in-process and over a socket
// (where the Node adapter writes the plain object straight out).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import type { AppDeps } from '../../../server/app-deps.ts';
import type { AppEnv } from '../../../server/http/app-env.ts';
import { assignRequestId } from '../../../server/http/request-id.ts';
import { requestEnvelope } from '../../../server/http/request-envelope.ts';
import { startServer } from '../../../server/runtime/node/start-server.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';

const API_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};
const BODY = { country: 'DEU', flow: 'user', tier: 'tier1' };

function assertApiHeaders(response: Response, what: string): void {
  for (const [name, value] of Object.entries(API_HEADERS)) {
    assert.equal(response.headers.get(name), value, `${what}: ${name}`);
  }
  assert.match(response.headers.get('x-request-id') ?? '', /^req_[0-9A-Za-z]+$/, `${what}: x-request-id`);
}

function assertRateLimitHeaders(response: Response, kind: 'read' | 'write', what: string): void {
  assert.equal(response.headers.get('ratelimit-policy'), `"${kind}";q=100000;w=60`, what);
  assert.match(response.headers.get('ratelimit') ?? '', new RegExp(`^"${kind}";r=\\d+;t=\\d+$`), what);
}

describe('response headers (in-process)', () => {
  let h: TestHarness;
  before(async () => {
    h = await createHarness('pglite');
  });
  // Its database open would keep the process (and a parity shard that imports this file) alive.
  after(() => h.close());

  it('puts every owed header on JSON answers, once each', async () => {
    const key = h.tenant.productionKey;
    const created = await h.call('POST', '/v1/sessions', { key, body: BODY });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('content-type'), 'application/json');
    assertApiHeaders(created, 'create');
    assertRateLimitHeaders(created, 'write', 'create');
    const { session_id: id } = (await created.json()) as { session_id: string };
    const read = await h.call('GET', `/v1/sessions/${id}`, { key });
    assert.equal(read.status, 200);
    assertApiHeaders(read, 'get');
    assertRateLimitHeaders(read, 'read', 'get');
    // One value per header: nothing appended twice by the completion step.
    for (const name of [...Object.keys(API_HEADERS), 'x-request-id', 'ratelimit']) {
      assert.ok(!(read.headers.get(name) ?? '').includes(', '), `${name} set once`);
    }
  });

  it('completes problem documents, before and after the rate limiter', async () => {
    const unauthenticated = await h.call('GET', '/v1/sessions/sess_missing');
    assert.equal(unauthenticated.status, 401);
    assertApiHeaders(unauthenticated, '401');
    assert.equal(unauthenticated.headers.get('ratelimit'), null, 'no rate-limit headers before counting');
    const missing = await h.call('GET', '/v1/sessions/sess_missing', { key: h.tenant.productionKey });
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assertApiHeaders(missing, '404');
    assertRateLimitHeaders(missing, 'read', '404');
    const body = (await missing.json()) as { request_id: string };
    assert.equal(missing.headers.get('x-request-id'), body.request_id);
  });

  it('completes an idempotent replay', async () => {
    const headers = { 'idempotency-key': `replay-${Date.now()}` };
    const key = h.tenant.productionKey;
    const first = await h.call('POST', '/v1/sessions', { key, headers, body: BODY });
    const replay = await h.call('POST', '/v1/sessions', { key, headers, body: BODY });
    assert.equal(first.status, 201);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assertApiHeaders(replay, 'replay');
    assertRateLimitHeaders(replay, 'write', 'replay');
    assert.notEqual(replay.headers.get('x-request-id'), first.headers.get('x-request-id'));
    assert.deepEqual(await replay.json(), await first.json());
  });

  it('echoes a plain client request id and answers HEAD with the same headers', async () => {
    const response = await h.call('HEAD', '/v1/sessions', {
      key: h.tenant.productionKey,
      headers: { 'x-request-id': 'client-42' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-request-id'), 'client-42');
    for (const [name, value] of Object.entries(API_HEADERS)) assert.equal(response.headers.get(name), value);
  });

  it('replaces a client request id that is too long or not plain with its own', async () => {
    for (const sent of ['a'.repeat(129), 'has space', 'semi;colon', 'dotted.id', 'é']) {
      const response = await h.call('GET', '/v1/sessions', {
        key: h.tenant.productionKey,
        headers: { 'x-request-id': sent },
      });
      assert.match(response.headers.get('x-request-id') ?? '', /^req_[0-9A-Za-z]+$/, JSON.stringify(sent));
    }
    const longest = 'A1_-='.repeat(25).padEnd(128, 'z');
    const echoed = await h.call('GET', '/v1/sessions', {
      key: h.tenant.productionKey,
      headers: { 'x-request-id': longest },
    });
    assert.equal(echoed.headers.get('x-request-id'), longest);
  });

  it('gives paths outside /v1 their request id and no API headers', async () => {
    const response = await h.call('GET', '/no-such-page');
    assert.equal(response.status, 404);
    assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
    assert.equal(response.headers.get('referrer-policy'), null);
    assert.equal(response.headers.get('ratelimit'), null);
  });
});

describe('response headers (over a socket)', () => {
  let h: TestHarness;
  let server: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    h = await createHarness('pglite');
    server = await startServer(h.deps, {
      port: 0,
      host: '127.0.0.1',
      webhookWorker: false,
      reviewWorker: false,
    });
  });
  after(() => server.close());

  it('writes the JSON answer with every owed header and a content length', async () => {
    const headers = { 'x-api-key': h.tenant.productionKey, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(BODY),
    });
    const text = await created.text();
    assert.equal(created.status, 201, text);
    assert.equal(created.headers.get('content-type'), 'application/json');
    assert.equal(created.headers.get('content-length'), String(Buffer.byteLength(text)));
    assertApiHeaders(created, 'create');
    assertRateLimitHeaders(created, 'write', 'create');
    const missing = await fetch(`${server.url}/v1/sessions/sess_missing`, { headers });
    assert.equal(missing.status, 404);
    assertApiHeaders(missing, '404');
    assertRateLimitHeaders(missing, 'read', '404');
  });
});

describe('the request frame with c.header, c.status and ResponseInit', () => {
  const app = new Hono<AppEnv>();
  app.use('*', assignRequestId());
  app.use('*', requestEnvelope({} as AppDeps));
  app.get('/v1/with-header', (c) => {
    c.header('x-extra', 'one');
    c.header('cache-control', 'private, max-age=5');
    return c.json({ ok: true });
  });
  app.get('/v1/with-status', (c) => {
    c.status(202);
    return c.json({ ok: true });
  });
  app.get('/v1/with-init', (c) => c.json({ ok: true }, { status: 203, headers: { 'x-init': 'yes' } }));
  app.get('/v1/appended', (c) => {
    c.header('vary', 'Origin', { append: true });
    return c.json({ ok: true }, 200, { 'x-third': 'arg' });
  });

  it('keeps what a route sets with c.header, a route cache-control winning', async () => {
    const response = await app.request('/v1/with-header');
    assert.equal(response.headers.get('x-extra'), 'one');
    assert.equal(response.headers.get('cache-control'), 'private, max-age=5');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
  });

  it('answers with the status set by c.status', async () => {
    const response = await app.request('/v1/with-status');
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  });

  it('hands a ResponseInit or an appended header to Hono and completes the answer', async () => {
    const init = await app.request('/v1/with-init');
    assert.equal(init.status, 203);
    assert.equal(init.headers.get('x-init'), 'yes');
    assert.equal(init.headers.get('cache-control'), 'no-store');
    assert.match(init.headers.get('x-request-id') ?? '', /^req_/);
    const appended = await app.request('/v1/appended');
    assert.equal(appended.headers.get('vary'), 'Origin');
    assert.equal(appended.headers.get('x-third'), 'arg');
    assert.equal(
      appended.headers.get('content-security-policy'),
      "default-src 'none'; frame-ancestors 'none'",
    );
    assert.deepEqual(await appended.json(), { ok: true });
  });
});
