import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../../server/runtime/node/start-server.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

interface Operation {
  method: string;
  path: string;
  queryNames: string[];
}

/** Routes of the console API: they take a console token, the others an API key. */
const CONSOLE_ONLY = /^\/v1\/(users|audit-events|api-keys)\b/;

async function assertProblem(response: Response, what: string): Promise<Record<string, any>> {
  const text = await response.text();
  assert.ok(response.status >= 400 && response.status < 500, `${what}: ${response.status} ${text}`);
  assert.equal(response.headers.get('content-type'), 'application/problem+json', what);
  return JSON.parse(text) as Record<string, any>;
}

for (const engine of testEngines()) {
  describe(`control characters in the URL and in JSON answer 400, never 500 (${engine})`, () => {
    let h: TestHarness;
    let token: string;
    let operations: Operation[];
    before(async () => {
      h = await createHarness(engine);
      token = await h.login();
      const document = await json(await h.call('GET', '/v1/openapi.json'));
      operations = Object.entries<Record<string, any>>(document['paths']).flatMap(([path, methods]) =>
        Object.entries<Record<string, any>>(methods).map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          queryNames: (operation['parameters'] ?? [])
            .filter((parameter: { in: string }) => parameter.in === 'query')
            .map((parameter: { name: string }) => parameter.name),
        })),
      );
    });
    after(() => h.close());

    /** With a valid credential, so without the guard the request would reach the store. */
    const send = (method: string, path: string, body?: unknown) =>
      h.call(method, path, {
        ...(CONSOLE_ONLY.test(path) ? { token } : { key: h.tenant.sandboxKey }),
        ...(body === undefined ? {} : { body }),
      });

    it('NUL in every path parameter of every operation of the OpenAPI document', async () => {
      const withIds = operations.filter((operation) => operation.path.includes('{'));
      assert.ok(withIds.length >= 20, `${withIds.length} operations with path ids`);
      for (const { method, path } of withIds) {
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)) {
          const url = path.replace(/\{(\w+)\}/g, (_whole, each: string) =>
            each === name ? 'x%00y' : `${each}_1`,
          );
          const what = `${method} ${url}`;
          const problem = await assertProblem(
            await send(method, url, method === 'GET' || method === 'DELETE' ? undefined : {}),
            what,
          );
          assert.equal(problem['code'], 'invalid_parameter', what);
          assert.equal(problem['param'], name, what);
          assert.ok(!problem['detail'].includes('\u0000'), 'the detail never repeats the character');
        }
      }
    });

    it('the other C0 controls and DEL in an id', async () => {
      for (const encoded of ['%01', '%09', '%0A', '%0D', '%1F', '%7F']) {
        const problem = await assertProblem(await send('GET', `/v1/sessions/sess${encoded}1`), encoded);
        assert.equal(problem['param'], 'id', encoded);
      }
    });

    it('NUL in every query parameter of every list: cursors, filters, limits', async () => {
      const lists = operations.filter((operation) => operation.queryNames.includes('starting_after'));
      assert.ok(lists.length >= 7, `${lists.length} lists`);
      let sent = 0;
      for (const { method, path, queryNames } of lists) {
        const base = path.replace(/\{(\w+)\}/g, (_whole, name: string) => `${name}_1`);
        for (const name of queryNames) {
          const what = `${method} ${base}?${name}=`;
          const problem = await assertProblem(await send(method, `${base}?${name}=a%00b`), what);
          assert.equal(problem['code'], 'invalid_parameter', what);
          assert.equal(problem['param'], name, what);
          sent += 1;
        }
      }
      assert.ok(sent >= 30, `${sent} query parameters`);
    });

    it('a newline or NUL in a cursor of a real list', async () => {
      for (const cursor of ['sess_%0A', 'sess_%00', '%00']) {
        for (const name of ['starting_after', 'ending_before']) {
          const problem = await assertProblem(await send('GET', `/v1/sessions?${name}=${cursor}`), cursor);
          assert.equal(problem['param'], name);
        }
      }
    });

    it('NUL in the login e-mail or password', async () => {
      for (const body of [
        { email: 'admin\u0000@tenant.idv.test', password: 'whatever-it-is' },
        { email: '\u0000', password: 'x' },
        { email: h.tenant.email, password: 'pass\u0000word' },
      ]) {
        const response = await h.call('POST', '/v1/console/login', { body });
        const problem = await assertProblem(response, JSON.stringify(body));
        assert.equal(problem['code'], 'invalid_parameter');
        assert.equal(problem['param'], body.email.includes('\u0000') ? 'email' : 'password');
      }
    });

    it('NUL anywhere in a JSON body, member names included, names the member', async () => {
      const session = { country: 'NLD', flow: 'user', tier: 'tier1' };
      for (const [body, param] of [
        [{ ...session, external_user_reference: 'a\u0000' }, 'external_user_reference'],
        [{ ...session, metadata: { note: 'x\u0000y' } }, 'metadata.note'],
        [{ ...session, metadata: { 'k\u0000': 'v' } }, 'metadata.k\uFFFD'],
      ] as const) {
        const problem = await assertProblem(await send('POST', '/v1/sessions', body), param);
        assert.equal(problem['code'], 'invalid_parameter');
        assert.equal(problem['param'], param);
      }
    });

    it('NUL outside the API: the hosted page and the problem pages', async () => {
      for (const path of ['/verify/abc%00def', '/docs/problems/%00']) {
        const response = await h.call('GET', path);
        assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status}`);
      }
    });
  });
}

describe('requests Node cannot parse get a problem document, not a reset', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    const h = await createHarness('pglite');
    server = await startServer(h.deps, {
      port: 0,
      host: '127.0.0.1',
      webhookWorker: false,
      reviewWorker: false,
    });
  });
  after(() => server.close());

  /** Sends raw bytes and reads until the server closes the connection. */
  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(bytes));
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });

  it('answers 431 with a problem document for 20 KB of headers, and keeps serving', async () => {
    const response = await fetch(`${server.url}/v1/sessions`, {
      headers: { 'x-padding': 'a'.repeat(20_000) },
    });
    assert.equal(response.status, 431);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    const problem = await json(response);
    assert.equal(problem['code'], 'request_headers_too_large');
    assert.equal(problem['status'], 431);
    assert.equal(problem['instance'], '/v1/sessions');
    assert.match(problem['request_id'], /^req_/);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });

  it('answers a raw oversized request the same way, with connection: close', async () => {
    const answer = await raw(
      `GET /v1/sessions?x=1 HTTP/1.1\r\nHost: a\r\nX-Padding: ${'b'.repeat(40_000)}\r\n\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.match(answer, /"code":"request_headers_too_large"/);
    assert.doesNotMatch(answer, /x=1/, 'no query string in the problem');
  });

  it('answers garbage with 400 malformed_request', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /"code":"malformed_request"/);
  });
});
