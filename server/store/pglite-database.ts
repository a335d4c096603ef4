import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Database, SqlClient } from './sql-client.ts';

type PgliteQueryable = Pick<PGlite | Transaction, 'query' | 'exec'>;

function clientOver(target: PgliteQueryable, transaction: SqlClient['transaction']): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      await target.exec(script);
    },
    transaction,
  };
}

/**
 * Wraps an open PGlite instance. Web-standard: the same file backs the embedded server database and
 * the browser mock. PGlite is single-connection, so transactions are serialised by PGlite itself.
 *
 * @example
 * const db = pgliteDatabase(await PGlite.create('./.idv/pgdata'));
 */
export function pgliteDatabase(pglite: PGlite): Database {
  const root: Database = {
    engine: 'pglite',
    ...clientOver(pglite, (work) =>
      pglite.transaction(async (tx) => {
        const inner: SqlClient = clientOver(tx, (nested) => nested(inner));
        return work(inner);
      }),
    ),
    close: () => pglite.close(),
  };
  return root;
}
