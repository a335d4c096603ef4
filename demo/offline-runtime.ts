/**
 * What stands in for the servers when the demo runs offline, started by both of its pages:
 *
 * - id-verify: `startMockWorker()` from `id-verify/mock/browser` (the real app, state in IndexedDB);
 * - the tenant backend: demo/tenant-backend.ts, the same code a Node server would run, mounted at
 *   `/tenant/*` on the same Service Worker. Its API calls go to the mock in-process, as server-to-server
 *   calls would (a browser would add the `Origin` headers the API rightly refuses for keys). The key it
 *   uses is the mock's public fixture key, so nothing secret is in the page. `@id-verify/node` checks the
 *   webhook signatures on `node:crypto` and `Buffer`: demo/node-shims/ stands in for both here.
 */
import { http } from 'msw';
import { startMockWorker } from '../mock/browser.ts';
import { BrowserBuffer } from './node-shims/buffer.ts';
import { seedOfflineDatabase } from './offline-database-seed.ts';
import { createTenantBackend, type VerificationRecord } from './tenant-backend.ts';

// Node's global, for the client's webhook check (read when a delivery arrives, not at import).
(globalThis as { Buffer?: unknown }).Buffer ??= BrowserBuffer;

const RECORDS_KEY = 'id-verify-demo:tenant-records';
/** The mock's IndexedDB database (`startMockWorker`'s default name, given explicitly: it is seeded here). */
const DATABASE_NAME = 'id-verify-mock';
const WEBHOOK_SECRET_KEY = 'id-verify-demo:webhook-secret';

/** The tenant's "database": localStorage, so the redirect to the hosted page and back keeps it. */
function persistentRecords(): Map<string, VerificationRecord> {
  const stored = JSON.parse(localStorage.getItem(RECORDS_KEY) ?? '[]') as [string, VerificationRecord][];
  const records = new Map(stored);
  const save = () => localStorage.setItem(RECORDS_KEY, JSON.stringify([...records]));
  const set = records.set.bind(records);
  records.set = (key, value) => {
    const result = set(key, value);
    save();
    return result;
  };
  // Records are also changed in place by webhooks; save after every backend request.
  addEventListener('idv-demo-backend-request', save);
  return records;
}

export async function startOfflineRuntime() {
  let backendFetch: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  // The mock's workers start at once and may deliver before the backend below exists: they wait for it
  // rather than collect a 503 and a retry minutes later.
  let markBackendReady = () => {};
  const backendReady = new Promise<void>((resolve) => {
    markBackendReady = resolve;
  });
  // A first start loads a migrated database rather than building one in the page (offline-database-seed.ts).
  await seedOfflineDatabase(DATABASE_NAME);
  const running = await startMockWorker({
    databaseName: DATABASE_NAME,
    // Deliveries go straight to the tenant backend's webhook route (and on the BroadcastChannel).
    onWebhook: async (delivery) => {
      await backendReady;
      const response = await backendFetch(
        new Request(delivery.url, { method: 'POST', headers: delivery.headers, body: delivery.body }),
      );
      return response.status;
    },
  });
  const backend = createTenantBackend({
    apiBase: running.mock.origin,
    apiKey: running.fixtures.sandboxKey,
    returnUrl: `${location.origin}/`,
    fetch: (input, init) => running.mock.fetch(new Request(input, init)),
    records: persistentRecords(),
    webhookSecret: localStorage.getItem(WEBHOOK_SECRET_KEY),
  });
  backendFetch = async (request) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.slice('/tenant'.length);
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const response = await backend.app.fetch(
      new Request(url, { method: request.method, headers: request.headers, ...(body ? { body } : {}) }),
    );
    dispatchEvent(new Event('idv-demo-backend-request'));
    return response;
  };
  running.worker.use(http.all(`${location.origin}/tenant/*`, ({ request }) => backendFetch(request)));
  markBackendReady();
  if (!localStorage.getItem(WEBHOOK_SECRET_KEY)) {
    await backend.registerWebhook(`${location.origin}/tenant/webhooks/id-verify`);
    localStorage.setItem(WEBHOOK_SECRET_KEY, backend.webhookSecret() ?? '');
  }
  return running;
}
