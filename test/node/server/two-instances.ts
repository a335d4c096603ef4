// Two app instances on one database, as two processes (or machines) behind a load balancer: on PGlite
// two apps share one embedded database (it cannot be opened twice); on PostgreSQL each has its own pool.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createApp } from '../../../server/app.ts';
import type { AppConfig } from '../../../server/app-config.ts';
import type { AppDeps } from '../../../server/app-deps.ts';
import { createFieldCipher } from '../../../server/crypto/field-cipher.ts';
import { randomIds } from '../../../server/crypto/ids.ts';
import { randomBytes } from '../../../server/crypto/primitives.ts';
import { argon2PasswordHasher } from '../../../server/runtime/node/argon2-password-hasher.ts';
import { postgresDatabase } from '../../../server/runtime/node/pg-database.ts';
import { migrate } from '../../../server/store/migrate.ts';
import { pgliteDatabase } from '../../../server/store/pglite-database.ts';
import type { Database } from '../../../server/store/sql-client.ts';
import { bootstrapTenant } from '../../../server/features/tenants/bootstrap-tenant.ts';
import { TestClock } from '../support/test-clock.ts';
import { type Engine, relaxedCommits } from '../support/test-database.ts';

export const BASE_URL = 'http://api.idv.test';

export interface Instance {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /** `app.request` with a JSON body and headers. */
  call(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: unknown },
  ): Promise<Response>;
}

export interface TwoInstances {
  first: Instance;
  second: Instance;
  clock: TestClock;
  /** A connection for the test's own queries. */
  db: Database;
  tenant: { email: string; password: string; productionKey: string; sandboxKey: string };
  close(): Promise<void>;
}

async function databasePair(
  engine: Engine,
): Promise<{ databases: [Database, Database]; close(): Promise<void> }> {
  if (engine === 'pglite') {
    const db = pgliteDatabase(await PGlite.create());
    await migrate(db);
    return { databases: [db, db], close: () => db.close() };
  }
  const adminUrl = process.env['TEST_DATABASE_URL'] as string;
  const name = `idv_two_instances_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  await admin(relaxedCommits(name));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databases: [Database, Database] = [
    postgresDatabase(url.toString(), { max: 3 }),
    postgresDatabase(url.toString(), { max: 3 }),
  ];
  await migrate(databases[0]);
  return {
    databases,
    async close() {
      await Promise.all(databases.map((db) => db.close()));
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * Two instances with the same keys and one fake clock (so both agree on the time, as NTP-synced
 * machines do), each on its own connection(s) to one database, and one tenant with both key kinds.
 * `deps` replaces dependencies of both (e.g. a memory rate-limit counter each, for contrast), given the
 * instance's database.
 */
export async function startTwoInstances(
  engine: Engine,
  options: { config?: Partial<AppConfig>; deps?: (db: Database) => Partial<AppDeps> } = {},
): Promise<TwoInstances> {
  const { databases, close } = await databasePair(engine);
  const clock = new TestClock();
  const master = randomBytes(32);
  const jwtSecret = randomBytes(32);
  async function instance(db: Database): Promise<Instance> {
    const deps: AppDeps = {
      config: {
        baseUrl: BASE_URL,
        verifyBaseUrl: BASE_URL,
        mode: 'development',
        rateLimits: { reads: 100_000, writes: 100_000 },
        accessTokenTtlSeconds: 3600,
        ...options.config,
      },
      db,
      clock,
      ids: randomIds,
      passwords: argon2PasswordHasher,
      cipher: await createFieldCipher(master),
      jwtSecret,
      clientAddress: (request) => request.headers.get('x-test-client-address') ?? '203.0.113.1',
      ...options.deps?.(db),
    };
    const app = createApp(deps);
    return {
      app,
      deps,
      call: (method, path, callOptions = {}) => {
        const headers: Record<string, string> = { ...callOptions.headers };
        let body: string | undefined;
        if (callOptions.body !== undefined) {
          body = JSON.stringify(callOptions.body);
          headers['content-type'] = 'application/json';
        }
        return Promise.resolve(app.request(`${BASE_URL}${path}`, { method, headers, body }));
      },
    };
  }
  const first = await instance(databases[0]);
  const second = await instance(databases[1]);
  const seeded = await bootstrapTenant(first.deps, {
    tenantName: 'Shared limits',
    adminEmail: `admin-${Math.random().toString(36).slice(2, 8)}@limits.idv.test`,
    apiKeys: ['sandbox', 'production'],
  });
  return {
    first,
    second,
    clock,
    db: databases[0],
    tenant: {
      email: seeded.email,
      password: seeded.password,
      productionKey: seeded.apiKeys.production as string,
      sandboxKey: seeded.apiKeys.sandbox as string,
    },
    close,
  };
}
