import { MIGRATIONS, type Migration } from './migrations/index.ts';
import type { SqlClient } from './sql-client.ts';

/** An arbitrary constant: the advisory lock that keeps two starting instances from migrating at once. */
const MIGRATION_LOCK_ID = 7_431_902;

/**
 * Applies every migration not yet recorded, each in its own transaction, under an advisory lock so that
 * several server instances starting together are safe. Returns the versions applied.
 */
export async function migrate(
  db: SqlClient,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  await db.query(`create table if not exists schema_migrations (
    version integer primary key, name text not null, applied_at timestamptz not null default now())`);
  const applied: number[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      const done = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (done.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (ran) applied.push(migration.version);
  }
  return applied;
}
