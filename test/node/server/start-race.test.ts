import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pg from 'pg';
import type { DevelopmentCredentials } from '../../../server/runtime/node/development-bootstrap.ts';
import { postgresDatabase } from '../../../server/runtime/node/pg-database.ts';
import { migrate } from '../../../server/store/migrate.ts';
import { MIGRATIONS } from '../../../server/store/migrations/index.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const ADMIN_URL = process.env['TEST_DATABASE_URL'];
/**
 * Eight by default (about 3 s each on two cores, in a CI run that must stay short); each trial is two
 * process starts at the same moment. IDV_START_RACE_TRIALS asks for more when hunting the race.
 */
const TRIALS = Number(process.env['IDV_START_RACE_TRIALS'] ?? 8);

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function countTenants(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      (await client.query<{ count: number }>('select count(*)::int as count from tenants')).rows[0]?.count ??
      0
    );
  } finally {
    await client.end();
  }
}

describe('two instances started together on an empty PostgreSQL database', {
  skip: !ADMIN_URL && 'needs TEST_DATABASE_URL',
}, () => {
  it('migrate() from two pools at the same moment: every migration applied once, 10 times', async (t) => {
    // The narrow race of two processes, made wide: both reach `schema_migrations` in the same instant
    // (before the lock was taken first, 9 in 10 of these failed on pg_type_typname_nsp_index).
    const started = performance.now();
    for (let trial = 0; trial < 10; trial += 1) {
      const name = `idv_migrate_race_${process.pid}_${trial}`;
      await admin(`create database ${name}`);
      const url = new URL(ADMIN_URL as string);
      url.pathname = `/${name}`;
      const first = postgresDatabase(url.toString(), { max: 2 });
      const second = postgresDatabase(url.toString(), { max: 2 });
      try {
        const applied = await Promise.all([migrate(first), migrate(second)]);
        // Each migration applied exactly once, by one or the other.
        assert.deepEqual(
          applied.flat().sort((x, y) => x - y),
          MIGRATIONS.map((migration) => migration.version),
          `trial ${trial}`,
        );
      } finally {
        await first.close();
        await second.close();
        await admin(`drop database if exists ${name} with (force)`);
      }
    }
    t.diagnostic(`10/10 trials in ${Math.round(performance.now() - started)} ms`);
  });

  it(`both come up, one demo tenant, shown once: ${TRIALS} trials`, async (t) => {
    const started = performance.now();
    let passed = 0;
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const name = `idv_race_${process.pid}_${trial}`;
      await admin(`create database ${name}`);
      const url = new URL(ADMIN_URL as string);
      url.pathname = `/${name}`;
      // One data directory for both, as for replicas sharing a volume: they must agree on its keys too.
      const dataDir = mkdtempSync(join(tmpdir(), 'idv-race-'));
      const env = { IDV_DATA_DIR: dataDir, DATABASE_URL: url.toString(), IDV_VISION: 'off' };
      const servers: ServerProcess[] = [];
      try {
        const starts = await Promise.allSettled([
          startServerProcess(env, { startTimeoutMs: 120_000 }),
          startServerProcess(env, { startTimeoutMs: 120_000 }),
        ]);
        for (const start of starts) if (start.status === 'fulfilled') servers.push(start.value);
        const failures = starts.flatMap((start) =>
          start.status === 'rejected' ? [String(start.reason)] : [],
        );
        assert.deepEqual(failures, [], `trial ${trial}`);
        const [a, b] = servers as [ServerProcess, ServerProcess];

        const credentials = JSON.parse(
          readFileSync(join(dataDir, 'credentials.json'), 'utf8'),
        ) as DevelopmentCredentials;
        const shown = servers.filter((server) => server.output().includes(credentials.console.password));
        assert.equal(shown.length, 1, `trial ${trial}: the password is shown by exactly one instance`);
        const other = servers.find((server) => !shown.includes(server));
        assert.match(other?.output() ?? '', /Demo tenant credentials: .*credentials\.json/);
        assert.doesNotMatch(other?.output() ?? '', /sk_sandbox_/);
        assert.equal(await countTenants(url.toString()), 1);

        for (const server of servers) assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
        // Written through one, read through the other: same keys, same database.
        const headers = { 'x-api-key': credentials.api_keys.sandbox, 'content-type': 'application/json' };
        const created = await fetch(`${a.baseUrl}/v1/sessions`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            country: 'NLD',
            flow: 'user',
            tier: 'tier1',
            external_user_reference: `race-${trial}`,
          }),
        });
        assert.equal(created.status, 201);
        const { session_id } = (await created.json()) as { session_id: string };
        const read = await fetch(`${b.baseUrl}/v1/sessions/${session_id}`, { headers });
        assert.equal(read.status, 200);
        assert.equal(
          ((await read.json()) as { external_user_reference: string }).external_user_reference,
          `race-${trial}`,
        );
        passed += 1;
      } finally {
        await Promise.all(servers.map((server) => server.stop('SIGKILL')));
        rmSync(dataDir, { recursive: true, force: true });
        await admin(`drop database if exists ${name} with (force)`);
      }
    }
    t.diagnostic(
      `${passed}/${TRIALS} trials passed in ${Math.round((performance.now() - started) / 1000)} s`,
    );
  });
});
