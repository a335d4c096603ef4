import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIdVerifyClient, IdVerifyError } from '../../../server/client/src/index.ts';

interface Recorded {
  method: string;
  url: string;
  headers: Headers;
}

/** A fetch that answers from a script, one entry per call, and records what it was sent. */
function scriptedFetch(script: (Response | Error)[]) {
  const calls: Recorded[] = [];
  const fetchDouble = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ method: init?.method ?? 'GET', url: String(input), headers: new Headers(init?.headers) });
    const next = script.shift();
    if (!next) throw new Error('the script ran out: more calls than expected');
    if (next instanceof Error) throw next;
    return next;
  };
  return { calls, fetch: fetchDouble as typeof fetch };
}

function problem(status: number, code: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ status, code, detail: code, request_id: 'req_test' }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

const session = () => Response.json({ object: 'session', session_id: 'sess_1' });

function clientWith(
  script: (Response | Error)[],
  options: { maxRetries?: number; retry?: { maxDelayMs?: number } } = {},
) {
  const waits: number[] = [];
  const double = scriptedFetch(script);
  const idv = createIdVerifyClient({
    apiKey: 'sk_sandbox_test',
    baseUrl: 'https://idv.example.test/v1',
    fetch: double.fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { idv, waits, calls: double.calls };
}

describe('@id-verify/node retries', () => {
  it('retries a 429 after its retry-after seconds, then succeeds', async () => {
    const { idv, waits, calls } = clientWith([
      problem(429, 'rate_limited', { 'retry-after': '2' }),
      session(),
    ]);
    assert.equal((await idv.sessions.get('sess_1')).session_id, 'sess_1');
    assert.deepEqual(waits, [2000]);
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.url, 'https://idv.example.test/v1/sessions/sess_1');
  });

  it('honours a retry-after given as an HTTP date on a 503', async () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    const { idv, waits } = clientWith([
      problem(503, 'service_unavailable', { 'retry-after': date }),
      session(),
    ]);
    await idv.sessions.get('sess_1');
    assert.equal(waits.length, 1);
    assert.ok(waits[0]! > 1000 && waits[0]! <= 3000, `waited ${waits[0]} ms`);
  });

  it('backs off exponentially with jitter on 5xx and network errors, up to maxRetries, then throws', async () => {
    const { idv, waits, calls } = clientWith(
      [
        problem(500, 'internal_error'),
        new TypeError('fetch failed'),
        problem(502, 'bad_gateway'),
        problem(503, 'x'),
      ],
      { maxRetries: 3 },
    );
    const error = await idv.sessions.get('sess_1').catch((caught: unknown) => caught);
    assert.ok(error instanceof IdVerifyError);
    assert.equal(error.status, 503);
    assert.equal(calls.length, 4);
    // 500 ms doubling, each between half and all of its ceiling.
    assert.equal(waits.length, 3);
    for (const [index, wait] of waits.entries()) {
      const ceiling = 500 * 2 ** index;
      assert.ok(wait >= ceiling / 2 && wait <= ceiling, `retry ${index + 1} waited ${wait} ms`);
    }
  });

  it('gives a network error as IdVerifyError code network_error once retries are spent', async () => {
    const { idv } = clientWith([new TypeError('fetch failed')], { maxRetries: 0 });
    const error = await idv.sessions.get('sess_1').catch((caught: unknown) => caught);
    assert.ok(error instanceof IdVerifyError);
    assert.equal(error.status, 0);
    assert.equal(error.code, 'network_error');
  });

  it('sends one generated idempotency key on every attempt of a POST, or the caller’s own', async () => {
    const { idv, calls } = clientWith([problem(503, 'x', { 'retry-after': '0' }), session(), session()]);
    await idv.sessions.create({ external_user_reference: 'u', country: 'DEU', flow: 'user', tier: 'tier1' });
    const key = calls[0]!.headers.get('idempotency-key');
    assert.ok(key && key.length >= 16);
    assert.equal(calls[1]!.headers.get('idempotency-key'), key);
    await idv.sessions.create(
      { external_user_reference: 'u', country: 'DEU', flow: 'user', tier: 'tier1' },
      { idempotencyKey: 'mine-1' },
    );
    assert.equal(calls[2]!.headers.get('idempotency-key'), 'mine-1');
    assert.equal(calls[2]!.headers.get('x-api-key'), 'sk_sandbox_test');
  });

  it('never retries a PATCH (no idempotency key), nor a 4xx other than 429', async () => {
    const patch = clientWith([problem(503, 'service_unavailable', { 'retry-after': '0' })]);
    const patchError = await patch.idv.webhooks
      .update('wh_1', { status: 'disabled' })
      .catch((e: unknown) => e);
    assert.ok(patchError instanceof IdVerifyError);
    assert.equal(patch.calls.length, 1);
    assert.equal(patch.calls[0]!.headers.get('idempotency-key'), null);

    const conflict = clientWith([problem(409, 'invalid_state_transition')]);
    await assert.rejects(conflict.idv.sessions.cancel('sess_1'), { code: 'invalid_state_transition' });
    assert.equal(conflict.calls.length, 1);
  });

  it('gives up at once when retry-after exceeds the cap, instead of hanging', async () => {
    const { idv, waits } = clientWith([problem(429, 'rate_limited', { 'retry-after': '3600' })]);
    const error = await idv.sessions.get('sess_1').catch((caught: unknown) => caught);
    assert.ok(error instanceof IdVerifyError);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfter, 3600);
    assert.deepEqual(waits, []);
  });

  it('reports a retry-after beyond maxDelayMs in the error instead of skipping the retry silently', async () => {
    const { idv, waits, calls } = clientWith([problem(503, 'service_unavailable', { 'retry-after': '1' })], {
      retry: { maxDelayMs: 50 },
    });
    const error = await idv.sessions.get('sess_1').catch((caught: unknown) => caught);
    assert.ok(error instanceof IdVerifyError);
    assert.equal(error.status, 503);
    assert.deepEqual(error.retrySkipped, { retryAfterMs: 1000, maxDelayMs: 50 });
    assert.match(
      error.message,
      /not retried: the server asked to wait 1000 ms, beyond retry\.maxDelayMs 50 ms/,
    );
    assert.equal(calls.length, 1);
    assert.deepEqual(waits, []);
  });

  it('leaves retrySkipped unset when no retry was due (a 4xx, or the retries spent)', async () => {
    const refused = clientWith([problem(404, 'resource_missing', { 'retry-after': '1' })], {
      retry: { maxDelayMs: 50 },
    });
    const notFound = await refused.idv.sessions.get('sess_1').catch((caught: unknown) => caught);
    assert.ok(notFound instanceof IdVerifyError);
    assert.equal(notFound.retrySkipped, undefined);

    const spent = clientWith([problem(503, 'x', { 'retry-after': '1' })], { maxRetries: 0 });
    const unavailable = await spent.idv.sessions.get('sess_1').catch((caught: unknown) => caught);
    assert.ok(unavailable instanceof IdVerifyError);
    assert.equal(unavailable.retrySkipped, undefined);
  });
});
