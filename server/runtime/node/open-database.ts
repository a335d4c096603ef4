import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  EMBEDDED_DATABASE_OPTIONS,
  keepEmbeddedDatabaseOnBaselineCompiler,
} from './embedded-database-settings.ts';
import { initializeEmbeddedDatabase } from './initialize-embedded-database.ts';
import { migrate } from '../../store/migrate.ts';
import { pgliteDatabase } from '../../store/pglite-database.ts';
import type { Database } from '../../store/sql-client.ts';
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
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    const dir = join(options.dataDir, 'pgdata');
    await initializeEmbeddedDatabase(dir);
    keepEmbeddedDatabaseOnBaselineCompiler();
    db = pgliteDatabase(await PGlite.create(dir, EMBEDDED_DATABASE_OPTIONS));
  }
  await migrate(db);
  return db;
}
