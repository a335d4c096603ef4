import { setupServer, type SetupServer } from 'msw/node';
import { createMockApi, type MockApi } from '../../../../mock/create-mock-api.ts';
import { mockHandlers } from '../../../../mock/handlers.ts';
import type { AppDeps } from '../../../../server/app-deps.ts';
import type { PasswordHasher } from '../../../../server/password-hasher.ts';
import type { Database } from '../../../../server/store/sql-client.ts';

/**
 * `IDV_TEST_TRANSPORT=mock` runs the HTTP-level suites a second time through the MSW mock: every
 * `h.call` / `h.app.request` becomes a real `fetch`, intercepted by `setupServer` (as `id-verify/mock/node`
 * does), answered by the mock's app on the mock's dependencies. Parity is then what the suites assert.
 */
export function mockTransportRequested(): boolean {
  return process.env['IDV_TEST_TRANSPORT'] === 'mock';
}

/** One interception per process, like a tenant's test setup; each harness adds its own origin to it. */
let server: SetupServer | null = null;
let harnessCount = 0;
let interceptedRequests = 0;
let unsendableRequests = 0;

/** Requests MSW handed to a harness's mock so far in this process: proof the transport was used. */
export function mockTransportRequestCount(): { intercepted: number; unsendable: number } {
  return { intercepted: interceptedRequests, unsendable: unsendableRequests };
}

function interceptor(): SetupServer {
  if (!server) {
    server = setupServer();
    // Anything that is not a harness origin (webhook receivers on 127.0.0.1, PostgreSQL) is real traffic.
    server.listen({ onUnhandledFrame: 'bypass' });
  }
  return server;
}

export interface MockTransport {
  mock: MockApi;
  /** The app as tests see it: `request()` goes over `fetch` → MSW → the mock instead of in-process. */
  app: MockApi['app'];
  close(): Promise<void>;
}

/**
 * Builds the mock over the harness's database, clock, keys and blob store (so tests that read
 * `h.deps.db` or `h.blobs` see the mock's), and the mock's own browser-capable password hasher (at
 * `passwords`' cost when given).
 * Each harness gets its own origin, so several harnesses in one process never answer for each other;
 * the app still believes it lives at the harness's configured base URL.
 */
export async function attachMockTransport(
  harnessDeps: AppDeps & { db: Database },
  /** The mock's hasher at another cost than its default (the harnesses' test cost); unset, its default. */
  passwords?: PasswordHasher,
): Promise<MockTransport> {
  harnessCount += 1;
  const origin = `http://harness-${process.pid}-${harnessCount}.mock.idv.test`;
  const { passwords: _nativeHasher, db, ...kept } = harnessDeps;
  const mock = await createMockApi({
    origin,
    database: db,
    fixtures: false,
    background: false,
    // The harness's vision engine or none, never the mock's deterministic default: a suite must see the
    // same models through either transport.
    deps: { ...kept, vision: harnessDeps.vision, ...(passwords ? { passwords } : {}) },
    config: harnessDeps.config,
  });
  const counted: MockApi = {
    ...mock,
    fetch: (request) => {
      interceptedRequests += 1;
      return mock.fetch(request);
    },
  };
  const handlers = mockHandlers(counted, { paths: ['/*'] });
  interceptor().use(...handlers);

  const viaFetch = async (input: string | Request | URL, init?: RequestInit): Promise<Response> => {
    const source = input instanceof Request ? input : new Request(new URL(String(input), origin), init);
    const url = new URL(source.url);
    const body = source.body === null ? undefined : await source.arrayBuffer();
    const target = `${origin}${url.pathname}${url.search}`;
    // A plain object, not a Headers copy: msw 3.0.5 in Node drops the last entry of a `new Headers(headers)`
    // copy taken from a multipart Request (seen with `x-verify-token` on uploads).
    const headers = Object.fromEntries(source.headers);
    // `fetch` would add `accept-encoding: gzip, deflate`; `app.request` sends none, so the app never
    // compresses in-process. Asking for identity keeps the two transports' requests the same (and avoids
    // msw 3.0.5's interceptor failing on a large compressed stream: `assert(!this.paused)` in undici).
    headers['accept-encoding'] ??= 'identity';
    try {
      // Hono's `app.request` returns redirects as they are; so must the transport.
      return await fetch(target, {
        method: source.method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
      });
    } catch (error) {
      // A request `fetch` refuses to send at all (a header value with control characters, which a test
      // of the server's own validation may build) cannot cross MSW. It still goes to the mock's app, with
      // the mock's deps, and is counted so the parity output says how many did.
      if (!(error instanceof TypeError && /header/i.test(String((error as { cause?: unknown }).cause))))
        throw error;
      unsendableRequests += 1;
      return mock.fetch(
        new Request(target, { method: source.method, headers: source.headers, body: body ?? null }),
      );
    }
  };
  const app = new Proxy(mock.app, {
    get(target, property, receiver) {
      if (property === 'request') return viaFetch;
      return Reflect.get(target, property, receiver);
    },
  });

  return {
    mock,
    app,
    // The database is the harness's: it closes it (background workers are off, nothing else to stop).
    async close() {
      const remaining = interceptor()
        .listHandlers()
        .filter((handler) => !handlers.includes(handler as (typeof handlers)[number]));
      interceptor().resetHandlers(...remaining);
    },
  };
}
