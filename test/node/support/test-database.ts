import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { postgresDatabase } from '../../../server/runtime/node/pg-database.ts';
import { migrate } from '../../../server/store/migrate.ts';
import { MIGRATIONS } from '../../../server/store/migrations/index.ts';
import { pgliteDatabase } from '../../../server/store/pglite-database.ts';
import type { Database } from '../../../server/store/sql-client.ts';

export type Engine = 'pglite' | 'postgres';

/**
 * The engines a suite runs on: always the embedded one, plus PostgreSQL when TEST_DATABASE_URL names a
 * server (CI sets it when one answers on 127.0.0.1:5432).
 */
export function testEngines(): Engine[] {
  return process.env['TEST_DATABASE_URL'] ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Names the migrated schema: a template made for one set of migrations is never used for another. The
 * PGlite version is part of it because its data directory format follows the engine's.
 */
const MIGRATIONS_HASH = createHash('sha256')
  .update(JSON.stringify(MIGRATIONS.map(({ version, name, sql }) => [version, name, sql])))
  .update(
    readFileSync(
      new URL(import.meta.resolve('@electric-sql/pglite')).pathname.replace(/dist\/.*$/, 'package.json'),
    ),
  )
  .digest('hex')
  .slice(0, 16);

/**
 * A fresh, migrated, empty database; on PostgreSQL a new database that `close()` drops again.
 *
 * Both engines start from a migrated template made once per migration set, not from scratch: a new
 * PGlite runs initdb (about 2.5 s idle and 9–13 s on a loaded 2-core runner, against 0.5–2.5 s to load a
 * dumped data directory), and every test file used to pay it. The template is the same database
 * `migrate` produces; the suites that start a server on an empty data directory still migrate from empty.
 */
export async function createTestDatabase(
  engine: Engine,
  options: { dataDir?: string } = {},
): Promise<Database> {
  if (engine === 'pglite') {
    if (options.dataDir !== undefined) {
      // A data directory on disk is a test of that directory's own life: start it the real way.
      const db = pgliteDatabase(await PGlite.create(options.dataDir));
      await migrate(db);
      return db;
    }
    const db = pgliteDatabase(await PGlite.create({ loadDataDir: await pgliteTemplate() }));
    await migrate(db); // a no-op on the template; kept so a stale template can never pass silently
    return db;
  }
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const template = await postgresTemplate(adminUrl);
  const name = `idv_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdmin(adminUrl, async (admin) => {
    await admin.query(`create database ${name} template ${template}`);
    await admin.query(relaxedCommits(name));
  });
  const db = postgresDatabase(databaseUrl(adminUrl, name), { max: 5 });
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      await withAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * The statement that makes a test database's commits return before their WAL reaches the disk
 * (`synchronous_commit = off`, for every session opened on it afterwards). A commit is still atomic and
 * seen by every other session at once; only a crash of the PostgreSQL server itself could lose the last
 * ones, and no test crashes the server (the crash tests kill the app's processes). The suites wait on
 * thousands of small commits: on the 2-core runner a login suite took 13.3 s with each commit flushed and
 * 8.9 s without. The server's own configuration is left as it is.
 */
export function relaxedCommits(database: string): string {
  return `alter database ${database} set synchronous_commit = off`;
}

let pgliteTemplateBytes: Promise<Blob> | undefined;

/**
 * The migrated PGlite data directory as a tarball, cached in the system's temp directory so the test
 * files of one run (separate processes) make it once. Written to a temporary name and renamed, so a
 * reader never sees half a file; two files racing to make it both write the same bytes.
 */
function pgliteTemplate(): Promise<Blob> {
  pgliteTemplateBytes ??= (async () => {
    const dir = join(tmpdir(), 'idv-test-templates');
    const file = join(dir, `pglite-${MIGRATIONS_HASH}.tar`);
    try {
      return new Blob([await readFile(file)]);
    } catch {
      const fresh = await PGlite.create();
      await migrate(pgliteDatabase(fresh));
      const dump = await fresh.dumpDataDir('none');
      await fresh.close();
      await mkdir(dir, { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    }
  })();
  return pgliteTemplateBytes;
}

let postgresTemplateName: Promise<string> | undefined;

/**
 * A migrated database to copy with `create database … template`, made once per migration set on the
 * server. An advisory lock makes concurrent test processes wait for the first one to finish it; nobody
 * stays connected to it, which `create database … template` requires.
 */
function postgresTemplate(adminUrl: string): Promise<string> {
  postgresTemplateName ??= withAdmin(adminUrl, async (admin) => {
    const name = `idv_template_${MIGRATIONS_HASH}`;
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const db = postgresDatabase(databaseUrl(adminUrl, building), { max: 1 });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        // Renamed only once whole: a run killed half-way leaves `_building`, never a broken template.
        await admin.query(`alter database ${building} rename to ${name}`);
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return postgresTemplateName;
}

async function withAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
