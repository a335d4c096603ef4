import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { postgresDatabase } from '../../../server/runtime/node/pg-database.ts';
import { migrate } from '../../../server/store/migrate.ts';
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

/** A fresh, migrated, empty database; on PostgreSQL a new database that `close()` drops again. */
export async function createTestDatabase(
  engine: Engine,
  options: { dataDir?: string } = {},
): Promise<Database> {
  if (engine === 'pglite') {
    const db = pgliteDatabase(await PGlite.create(options.dataDir));
    await migrate(db);
    return db;
  }
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `idv_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = postgresDatabase(url.toString(), { max: 5 });
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
