import { createApp } from '../../../server/app.ts';
import type { AppConfig } from '../../../server/app-config.ts';
import type { AppDeps } from '../../../server/app-deps.ts';
import { type MemoryBlobStore, memoryBlobStore } from '../../../server/store/blobs/memory-blob-store.ts';
import { createFieldCipher } from '../../../server/crypto/field-cipher.ts';
import { randomBytes } from '../../../server/crypto/primitives.ts';
import { randomIds } from '../../../server/crypto/ids.ts';
import { argon2PasswordHasher } from '../../../server/runtime/node/argon2-password-hasher.ts';
import { testMockPasswordHasher, testPasswordHasher } from './test-password-hashers.ts';
import type { EvidenceCollector } from '../../../server/features/review/evidence-collector.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import type { Database } from '../../../server/store/sql-client.ts';
import { bootstrapTenant } from '../../../server/features/tenants/bootstrap-tenant.ts';
import { createTestDatabase, type Engine } from './test-database.ts';
import { TestClock } from './test-clock.ts';

export const TEST_BASE_URL = 'http://api.idv.test';
export const TEST_VERIFY_BASE_URL = 'http://verify.idv.test';

export interface TestTenant {
  tenantId: string;
  email: string;
  password: string;
  sandboxKey: string;
  productionKey: string;
}

export interface TestHarness {
  app: ReturnType<typeof createApp>;
  deps: AppDeps & { db: Database };
  clock: TestClock;
  /** The raw blob store under the app's encryption: what would reach the disk. */
  blobs: MemoryBlobStore;
  tenant: TestTenant;
  other: TestTenant;
  /** `app.request` with JSON encoding of `body` and the given credential. */
  call(method: string, path: string, options?: CallOptions): Promise<Response>;
  /** Logs the tenant's admin in and returns the access token. */
  login(tenant?: TestTenant): Promise<string>;
  close(): Promise<void>;
}

export interface CallOptions {
  key?: string;
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

let tenantCounter = 0;

async function seedTenant(deps: AppDeps, name: string): Promise<TestTenant> {
  tenantCounter += 1;
  const result = await bootstrapTenant(deps, {
    tenantName: name,
    adminEmail: `admin${tenantCounter}-${Math.random().toString(36).slice(2, 8)}@tenant.idv.test`,
    apiKeys: ['sandbox', 'production'],
  });
  return {
    tenantId: result.tenantId,
    email: result.email,
    password: result.password,
    sandboxKey: result.apiKeys.sandbox as string,
    productionKey: result.apiKeys.production as string,
  };
}

/**
 * A real app on a real (fresh) database with two tenants, each with an admin, a sandbox and a production
 * key. Only the clock is fake, so time-dependent rules can be tested without waiting.
 */
export async function createHarness(
  engine: Engine,
  options: {
    config?: Partial<AppConfig>;
    db?: Database;
    masterKey?: Uint8Array<ArrayBuffer>;
    /** The review's evidence source; tests of the pipeline pass their own. */
    collectReviewEvidence?: EvidenceCollector;
    /**
     * `owasp`: passwords hashed at the cost the server and the mock store (for a test of that cost); by
     * default the test cost (test-password-hashers.ts), the same Argon2id code at a fraction of the CPU.
     */
    passwordCost?: 'owasp' | 'test';
  } = {},
): Promise<TestHarness> {
  const clock = new TestClock();
  const owaspCost = options.passwordCost === 'owasp';
  const db = options.db ?? (await createTestDatabase(engine));
  const blobs = memoryBlobStore();
  const deps: AppDeps & { db: Database } = {
    config: {
      baseUrl: TEST_BASE_URL,
      verifyBaseUrl: TEST_VERIFY_BASE_URL,
      mode: 'development',
      rateLimits: { reads: 100_000, writes: 100_000 },
      accessTokenTtlSeconds: 3600,
      ...options.config,
    },
    db,
    clock,
    ids: randomIds,
    passwords: owaspCost ? argon2PasswordHasher : testPasswordHasher,
    cipher: await createFieldCipher(options.masterKey ?? randomBytes(32)),
    jwtSecret: randomBytes(32),
    clientAddress: (request) => request.headers.get('x-test-client-address') ?? '203.0.113.1',
    ...(options.collectReviewEvidence ? { collectReviewEvidence: options.collectReviewEvidence } : {}),
    images: sharpImageAnalyzer(),
    blobs,
  };
  // IDV_TEST_TRANSPORT=mock: the same suites again through fetch → MSW → the mock (issue 6 parity).
  const transport =
    process.env['IDV_TEST_TRANSPORT'] === 'mock'
      ? await (await import('../mock/support/mock-transport.ts')).attachMockTransport(
          deps,
          // The mock's own WebAssembly hasher, at the cost this harness asked for.
          owaspCost ? undefined : testMockPasswordHasher,
        )
      : null;
  if (transport) Object.assign(deps, transport.mock.deps);
  const app = transport?.app ?? createApp(deps);
  const tenant = await seedTenant(deps, 'Tenant A');
  const other = await seedTenant(deps, 'Tenant B');

  const call: TestHarness['call'] = (method, path, callOptions = {}) => {
    const headers: Record<string, string> = { ...callOptions.headers };
    if (callOptions.key) headers['x-api-key'] = callOptions.key;
    if (callOptions.token) headers['authorization'] = `Bearer ${callOptions.token}`;
    let body: string | undefined = callOptions.rawBody;
    if (callOptions.body !== undefined) {
      body = JSON.stringify(callOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    return Promise.resolve(app.request(`${TEST_BASE_URL}${path}`, { method, headers, body }));
  };

  return {
    app,
    // Under the mock transport, the very object the mock's app reads, so a test that swaps a dep swaps it there.
    deps: transport?.mock.deps ?? deps,
    clock,
    blobs,
    tenant,
    other,
    call,
    async login(who = tenant) {
      const response = await call('POST', '/v1/console/login', {
        body: { email: who.email, password: who.password },
      });
      if (response.status !== 200)
        throw new Error(`login failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { access_token: string }).access_token;
    },
    close: async () => {
      await transport?.close();
      await db.close();
    },
  };
}

/** Reads a JSON or problem body with a loose type, for assertions. */
export async function json(response: Response): Promise<Record<string, any>> {
  return (await response.json()) as Record<string, any>;
}
