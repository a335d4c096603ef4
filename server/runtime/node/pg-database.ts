import pg from 'pg';
import type { Database, SqlClient } from '../../store/sql-client.ts';

// Parse timestamptz/jsonb like PGlite does (Date objects, parsed JSON) so both engines return the same
// shapes; int8 stays a string in pg, so queries cast counts to int.

function clientOver(queryable: pg.Pool | pg.PoolClient, transaction: SqlClient['transaction']): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await queryable.query(text, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(script: string) {
      await queryable.query(script);
    },
    transaction,
  };
}

/**
 * A PostgreSQL server through node-postgres. Each transaction holds one pooled connection.
 *
 * @example
 * const db = postgresDatabase('postgres://postgres@127.0.0.1:5432/idv');
 */
export function postgresDatabase(connectionString: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const transaction: SqlClient['transaction'] = async (work) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const inner: SqlClient = clientOver(client, (nested) => nested(inner));
      const result = await work(inner);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  return { engine: 'postgres', ...clientOver(pool, transaction), close: () => pool.end() };
}
