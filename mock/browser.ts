/**
 * `@id-verify/mock/browser`: the mock behind MSW's `setupWorker`, for frontends with no server running.
 * One call starts it; the state lives in IndexedDB, so a session survives the redirect to the hosted
 * page and back. Never import this from Node (it needs a Service Worker); use `@id-verify/mock/node`.
 */
import { setupWorker, type SetupWorker } from 'msw/browser';
import {
  broadcastWebhookSender,
  type WebhookReceiver,
} from '../server/runtime/browser/callback-webhook-sender.ts';
import { canvasImageAnalyzer } from '../server/runtime/browser/canvas-image-analyzer.ts';
import { createFieldCipher } from '../server/crypto/field-cipher.ts';
import { fromBase64, toBase64 } from '../server/crypto/encoding.ts';
import { randomBytes } from '../server/crypto/primitives.ts';
import { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts';
import { API_PATHS, mockHandlers } from './handlers.ts';
import type { MockScenarios } from './scenarios.ts';

export * from './index.ts';
export type { DeliveredWebhook, WebhookReceiver } from '../server/runtime/browser/callback-webhook-sender.ts';

/** Where deliveries are posted for anyone to watch: `new BroadcastChannel(MOCK_WEBHOOK_CHANNEL)`. */
export const MOCK_WEBHOOK_CHANNEL = 'id-verify-mock-webhooks';

export interface MockWorkerOptions extends Omit<MockApiOptions, 'database'> {
  /** IndexedDB database name (default `id-verify-mock`); `persist: false` keeps everything in memory. */
  databaseName?: string;
  /** Keep state across reloads (default true): needed for the redirect flow. */
  persist?: boolean;
  /** Receives each signed webhook delivery (the tenant backend's handler); answers with a status. */
  onWebhook?: WebhookReceiver;
  /** URL of the `msw init` output (default `/mockServiceWorker.js`). */
  serviceWorkerUrl?: string;
  /** Path patterns the worker hands to the app (default `/v1/*`). */
  paths?: readonly string[];
  /** Do not log every intercepted request in the console (default true). */
  quiet?: boolean;
  /** Sets `window.idvMock` for the console (default true). */
  exposeOnWindow?: boolean;
}

export interface MockWorker {
  mock: MockApi;
  worker: SetupWorker;
  scenarios: MockScenarios;
  fixtures: MockApi['fixtures'];
  /** Stops intercepting and the background workers; calling it again waits for the first stop. */
  stop(): Promise<void>;
  /** Stops, then deletes the persisted database and keys: the next start is a fresh mock. */
  reset(): Promise<void>;
}

declare global {
  interface Window {
    /** The running mock, for the console: `idvMock.scenarios.failNext(1, 503)`. */
    idvMock?: MockWorker;
  }
}

const KEYS_STORAGE_PREFIX = 'id-verify-mock:keys:';

/**
 * The field-encryption key and the token-signing key must outlive a reload with the database, or the
 * persisted personal data could no longer be decrypted and console tokens would stop working. A mock
 * holds only test data, so localStorage is an acceptable place for them; a real server never does this.
 */
function persistedKeys(name: string): {
  masterKey: Uint8Array<ArrayBuffer>;
  jwtSecret: Uint8Array<ArrayBuffer>;
} {
  const stored = localStorage.getItem(KEYS_STORAGE_PREFIX + name);
  if (stored) {
    const parsed = JSON.parse(stored) as { masterKey: string; jwtSecret: string };
    const masterKey = fromBase64(parsed.masterKey);
    const jwtSecret = fromBase64(parsed.jwtSecret);
    // Keys a page or extension mangled are replaced: the mock's data is test data, made again on reset.
    if (masterKey && jwtSecret) return { masterKey, jwtSecret };
  }
  const keys = { masterKey: randomBytes(32), jwtSecret: randomBytes(32) };
  localStorage.setItem(
    KEYS_STORAGE_PREFIX + name,
    JSON.stringify({ masterKey: toBase64(keys.masterKey), jwtSecret: toBase64(keys.jwtSecret) }),
  );
  return keys;
}

function deleteIndexedDb(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => resolve();
  });
}

/**
 * Starts the mock in this page: registers the Service Worker and answers `/v1/*` on the API origin (and
 * the hosted-page origin) from the real app. Both origins default to this page's origin.
 *
 * @example
 * import { startMockWorker } from '@id-verify/mock/browser';
 * await startMockWorker();
 * // in the console: idvMock.scenarios.forceOutcome('rejected'); idvMock.fixtures.sandboxKey
 */
export async function startMockWorker(options: MockWorkerOptions = {}): Promise<MockWorker> {
  const {
    databaseName = 'id-verify-mock',
    persist = true,
    onWebhook,
    serviceWorkerUrl = '/mockServiceWorker.js',
    paths = API_PATHS,
    quiet = true,
    exposeOnWindow = true,
    ...apiOptions
  } = options;
  const keys = persist
    ? persistedKeys(databaseName)
    : { masterKey: randomBytes(32), jwtSecret: randomBytes(32) };
  const mock = await createMockApi({
    origin: location.origin,
    // Each idle poll that writes flushes IndexedDB; half a second still feels instant in a UI.
    background: { pollIntervalMs: 500 },
    ...apiOptions,
    database: persist ? { dataDir: `idb://${databaseName}` } : {},
    deps: {
      images: canvasImageAnalyzer(),
      webhookSender: broadcastWebhookSender(MOCK_WEBHOOK_CHANNEL, onWebhook),
      cipher: await createFieldCipher(keys.masterKey),
      jwtSecret: keys.jwtSecret,
      ...apiOptions.deps,
    },
  });
  const worker = setupWorker(...mockHandlers(mock, { paths }));
  await worker.start({ serviceWorker: { url: serviceWorkerUrl }, quiet, onUnhandledFrame: 'bypass' });

  let stopping: Promise<void> | undefined;
  const running: MockWorker = {
    mock,
    worker,
    scenarios: mock.scenarios,
    fixtures: mock.fixtures,
    stop() {
      // Once: a second call (a test's cleanup after the test stopped it) waits for the first.
      stopping ??= (async () => {
        await worker.stop();
        await mock.close();
      })();
      return stopping;
    },
    async reset() {
      await running.stop();
      localStorage.removeItem(KEYS_STORAGE_PREFIX + databaseName);
      // PGlite names its IndexedDB database `/pglite/<name>`.
      await deleteIndexedDb(`/pglite/${databaseName}`);
    },
  };
  if (exposeOnWindow) window.idvMock = running;
  return running;
}
