import type pg from 'pg';
import type { SqlClient } from '../../server/store/sql-client.ts';

export interface RecordedQuery {
  text: string;
  params: readonly unknown[];
}

/**
 * A SqlClient over one connection that runs every statement for real and records its text and
 * parameters, so the bench EXPLAINs exactly the SQL the store functions send (no copy that could drift).
 * `transaction` runs inline: the caller wraps the whole call in BEGIN … ROLLBACK, so claims, deletes and
 * updates leave the seeded data as it was.
 */
export function recordingClient(client: pg.Client): { sql: SqlClient; recorded: RecordedQuery[] } {
  const recorded: RecordedQuery[] = [];
  const sql: SqlClient = {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      recorded.push({ text, params });
      const result = await client.query(text, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(script: string) {
      recorded.push({ text: script, params: [] });
      await client.query(script);
    },
    transaction: (work) => work(sql),
  };
  return { sql, recorded };
}

const depth = new WeakMap<pg.Client, number>();

/**
 * Runs `work` and undoes everything it wrote: BEGIN … ROLLBACK, or SAVEPOINT … ROLLBACK TO inside a
 * transaction already open on this connection (the bench measures a migration's indexes inside one and
 * rolls them back, so the next size starts from the schema before it).
 */
export async function rolledBack<T>(client: pg.Client, work: () => Promise<T>): Promise<T> {
  const level = depth.get(client) ?? 0;
  await client.query(level === 0 ? 'begin' : `savepoint scratch_${level}`);
  depth.set(client, level + 1);
  try {
    return await work();
  } finally {
    depth.set(client, level);
    await client.query(level === 0 ? 'rollback' : `rollback to savepoint scratch_${level}`);
  }
}
