import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '../store/migrate.ts';
import { pgliteDatabase } from '../store/pglite-database.ts';
import type { Database } from '../store/sql-client.ts';
import { postgresDatabase } from './pg-database.ts';

/**
 * PostgreSQL at `databaseUrl`, else the embedded engine persisted under the data dir; migrated either way.
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<Database> {
  let db: Database;
  if (options.databaseUrl) {
    db = postgresDatabase(options.databaseUrl);
  } else {
    const dir = join(options.dataDir, 'pgdata');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    db = pgliteDatabase(await PGlite.create(dir));
  }
  await migrate(db);
  return db;
}
