import { MIGRATIONS, type Migration } from './migrations/index.ts';
import type { SqlClient } from './sql-client.ts';

/** An arbitrary constant: the advisory lock that keeps two starting instances from migrating at once. */
export const MIGRATION_LOCK_ID = 7_431_902;

/**
 * Applies every migration not yet recorded, each in its own transaction, under an advisory lock so that
 * several server instances starting together on one database are safe. The lock is taken before anything
 * is created, `schema_migrations` included: two `create table if not exists` racing on an empty database
 * would otherwise collide in the catalogue. Transaction-scoped locks need no session of their own, so this
 * works through a pool and on single-connection PGlite alike. Returns the versions applied.
 *
 * @example
 * await migrate(db); // [1, 2, …] on an empty database, [] once it is up to date
 */
export async function migrate(
  db: SqlClient,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await tx.query(`create table if not exists schema_migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`);
  });
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

/**
 * Whether every known migration is recorded: the readiness probe's question. Throws when the database
 * cannot be reached, like any query.
 *
 * @example
 * if (!(await migrationsComplete(db))) return notReady('migrations_pending');
 */
export async function migrationsComplete(
  db: SqlClient,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<boolean> {
  const rows = await db.query<{ count: number }>(
    'select count(*)::int as count from schema_migrations where version = any($1::int[])',
    [migrations.map((migration) => migration.version)],
  );
  return rows[0]?.count === migrations.length;
}
