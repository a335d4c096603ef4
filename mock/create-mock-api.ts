import { IdbFs, PGlite } from '@electric-sql/pglite';
import { createApp } from '../server/app.ts';
import type { AppConfig } from '../server/app-config.ts';
import type { AppDeps } from '../server/app-deps.ts';
import { systemClock } from '../server/clock.ts';
import { memoryBlobStore } from '../server/store/blobs/memory-blob-store.ts';
import { wasmArgon2PasswordHasher } from '../server/runtime/browser/wasm-argon2-password-hasher.ts';
import { createFieldCipher } from '../server/crypto/field-cipher.ts';
import { randomIds } from '../server/crypto/ids.ts';
import { randomBytes } from '../server/crypto/primitives.ts';
import { ERROR_STATUS } from '../server/errors/error-codes.ts';
import { memoryRateLimitCounter } from '../server/http/rate-limit-counter.ts';
import { simulateSession } from '../server/features/review/simulate-session.ts';
import { migrate } from '../server/store/migrate.ts';
import { pgliteDatabase } from '../server/store/pglite-database.ts';
import type { Database } from '../server/store/sql-client.ts';
import { deterministicVision } from '../server/features/vision/deterministic-vision.ts';
import { createMockBackground, type MockBackground, type MockBackgroundOptions } from './background.ts';
import { MOCK_FIXTURES, seedMockFixtures } from './fixtures.ts';
import { createScenarioEngine, failureCodeFor, type MockScenarios } from './scenarios.ts';

/** Where the mock answers when no origin is given: a reserved `.test` name no real server can own. */
export const DEFAULT_MOCK_ORIGIN = 'https://mock.idv.test';

export interface MockApiOptions {
  /** Origin whose `/v1/*` the mock answers, e.g. `https://api.example.com` (default {@link DEFAULT_MOCK_ORIGIN}). */
  origin?: string;
  /**
   * Origin of the hosted page (`verify_url` is `{verifyOrigin}/verify/<token>`); the widget calls
   * `/v1/verify/*` there, so the mock answers `/v1/*` on it too. Defaults to `origin`.
   */
  verifyOrigin?: string;
  /**
   * The database: a PGlite data directory (`idb://name` persists in the browser's IndexedDB; absent is
   * in memory), or an open {@link Database} (tests pass theirs; it is migrated but never seeded twice).
   */
  database?: { dataDir?: string } | Database;
  /** Seeds {@link MOCK_FIXTURES} (default true). */
  fixtures?: boolean;
  /** Runs the review, webhook and expiry workers on timers (default true). Tests may prefer `flush()`. */
  background?: boolean | MockBackgroundOptions;
  /**
   * Replaces individual dependencies (clock, images, webhookSender, …). `vision` defaults to the
   * deterministic stand-in over `images` (see mock/README.md); pass `vision: undefined` for none, as a
   * server without models.
   */
  deps?: Partial<AppDeps>;
  /** Configuration overrides; `baseUrl`/`verifyBaseUrl` default to the origins above. */
  config?: Partial<AppConfig>;
}

/** A running mock: the real app on browser-capable dependencies, plus the switches to steer it. */
export interface MockApi {
  readonly origin: string;
  readonly verifyOrigin: string;
  readonly app: ReturnType<typeof createApp>;
  readonly deps: AppDeps & { db: Database };
  readonly fixtures: typeof MOCK_FIXTURES;
  readonly scenarios: MockScenarios;
  /** Answers one request exactly as the MSW handlers do (scenarios applied). */
  fetch(request: Request): Promise<Response>;
  /** Runs the background workers until idle: every submitted session decided, every webhook sent. */
  flush(): Promise<void>;
  /** Stops the workers and closes the database. */
  close(): Promise<void>;
}

function isDatabase(value: MockApiOptions['database']): value is Database {
  return typeof value === 'object' && value !== null && 'transaction' in value;
}

/**
 * A migrated, empty database image, made once per page or process. PGlite's first start runs initdb
 * (seconds); starting from this image skips it, so the second and later in-memory mocks open several
 * times faster. Measured numbers are in mock/README.md.
 */
let migratedImage: Promise<Blob | File> | null = null;

function migratedTemplate(): Promise<Blob | File> {
  migratedImage ??= (async () => {
    const pglite = await PGlite.create();
    await migrate(pgliteDatabase(pglite));
    const image = await pglite.dumpDataDir('none');
    await pglite.close();
    return image;
  })();
  return migratedImage;
}

async function openMockDatabase(option: MockApiOptions['database']): Promise<Database> {
  if (isDatabase(option)) {
    await migrate(option);
    return option;
  }
  // A persisted database (`idb://…`) keeps its own data; only an in-memory one starts from the image.
  if (!option?.dataDir) {
    const db = pgliteDatabase(await PGlite.create({ loadDataDir: await migratedTemplate() }));
    await migrate(db); // a no-op on the image, kept so a stale image can never serve an old schema
    return db;
  }
  if (!option.dataDir.startsWith('idb://')) {
    const db = pgliteDatabase(await PGlite.create(option.dataDir));
    await migrate(db);
    return db;
  }
  // IndexedDB: PGlite would flush its whole file system after every statement, reads included (about
  // 175 ms per request measured, see mock/README.md). With relaxed durability statements return at once
  // and flush in the background; each commit is then flushed and awaited here, so a page that navigates
  // right after a write (the redirect to the hosted page) never loses it.
  const fs = new IdbFs(option.dataDir.slice('idb://'.length));
  const pglite = await PGlite.create({ fs, relaxedDurability: true });
  const inner = pgliteDatabase(pglite);
  const db: Database = {
    ...inner,
    async query<Row>(text: string, params?: readonly unknown[]) {
      const rows = await inner.query<Row>(text, params);
      // A statement outside a transaction is its own commit.
      if (!/^\s*select\b/i.test(text)) await fs.syncToFs(false);
      return rows;
    },
    async transaction(work) {
      const result = await inner.transaction(work);
      await fs.syncToFs(false);
      return result;
    },
    async close() {
      // Let the background flushes of relaxed durability finish before the file system goes away.
      await pglite.query('select 1');
      await fs.syncToFs(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await inner.close();
    },
  };
  await migrate(db);
  return db;
}

/**
 * Builds the mock: `createApp` (the very app the server runs) over PGlite, WASM Argon2id, Web Crypto,
 * an in-memory blob store, the server's own workers and, over the host's image decoder, the deterministic
 * vision stand-in. Host-specific parts (image decoding, webhook delivery) come in through `deps`;
 * `@id-verify/mock/node` and `@id-verify/mock/browser` pass them.
 *
 * @example
 * const mock = await createMockApi({ origin: 'https://api.example.com' });
 * const response = await mock.fetch(new Request('https://api.example.com/v1/me'));
 */
export async function createMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const origin = (options.origin ?? DEFAULT_MOCK_ORIGIN).replace(/\/+$/, '');
  const verifyOrigin = (options.verifyOrigin ?? origin).replace(/\/+$/, '');
  const db = await openMockDatabase(options.database);
  const overrides = options.deps ?? {};
  // Keys live only as long as the mock unless the host passes its own (the browser keeps them with the
  // IndexedDB database, or persisted personal data could no longer be decrypted after a reload).
  const deps: AppDeps & { db: Database } = {
    clock: systemClock,
    ids: randomIds,
    passwords: wasmArgon2PasswordHasher,
    cipher: overrides.cipher ?? (await createFieldCipher(randomBytes(32))),
    jwtSecret: randomBytes(32),
    blobs: memoryBlobStore(),
    clientAddress: () => '127.0.0.1',
    // The mock is the only instance on its database: counting in memory saves a query per request.
    rateLimitCounter: memoryRateLimitCounter(),
    ...overrides,
    config: {
      baseUrl: origin,
      verifyBaseUrl: verifyOrigin,
      mode: 'development',
      rateLimits: { reads: 100_000, writes: 100_000 },
      accessTokenTtlSeconds: 3600,
      ...overrides.config,
      ...options.config,
    },
    db,
  };
  // No room for the models in a browser: the deterministic stand-in reads the images' own content instead.
  if (!('vision' in overrides) && deps.images) deps.vision = deterministicVision(deps.images);
  if (options.fixtures !== false) await seedMockFixtures(deps);

  const app = createApp(deps);
  const engine = createScenarioEngine();
  const background: MockBackground | null =
    options.background === false
      ? null
      : createMockBackground(deps, options.background === true ? {} : options.background);
  background?.start();
  const flushWorkers = createMockBackground(deps, { pollIntervalMs: 0 });

  const scenarios: MockScenarios = {
    get state() {
      return engine.state;
    },
    forceOutcome(outcome, forceOptions = {}) {
      engine.state.forcedOutcome =
        outcome === null
          ? null
          : {
              outcome,
              reasonCodes: forceOptions.reasonCodes ?? [],
              ...(forceOptions.processingDelayMs === undefined
                ? {}
                : { processingDelayMs: forceOptions.processingDelayMs }),
            };
    },
    setLatency(ms, latencyOptions = {}) {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError('latency must be a number of ms ≥ 0');
      engine.state.latency = ms === 0 ? null : { ms, path: latencyOptions.path ?? null };
    },
    failNext(count, status, failOptions = {}) {
      if (!(Number.isInteger(count) && count > 0)) throw new RangeError('count must be a positive integer');
      const code = failureCodeFor(status, failOptions.code);
      if (ERROR_STATUS[code] !== status) {
        throw new RangeError(`code ${code} answers ${ERROR_STATUS[code]}, not ${status}`);
      }
      engine.state.failures.push({
        remaining: count,
        status,
        code,
        path: failOptions.path ?? null,
        retryAfterSeconds: failOptions.retryAfterSeconds ?? 1,
      });
    },
    async expireSession(sessionId, scope = {}) {
      const expired = await simulateSession(
        deps,
        { tenantId: scope.tenantId ?? MOCK_FIXTURES.tenantId, environment: scope.environment ?? 'sandbox' },
        sessionId,
        'expire',
      );
      return expired.id;
    },
    reset() {
      engine.state.forcedOutcome = null;
      engine.state.latency = null;
      engine.state.failures.length = 0;
    },
  };

  return {
    origin,
    verifyOrigin,
    app,
    deps,
    fixtures: MOCK_FIXTURES,
    scenarios,
    async fetch(request) {
      const failure = await engine.intercept(request, deps.config.baseUrl);
      if (failure) return failure;
      return app.fetch(await engine.rewrite(request));
    },
    flush: () => flushWorkers.flush(),
    async close() {
      await background?.stop();
      await db.close();
    },
  };
}
