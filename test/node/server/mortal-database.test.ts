// The crash harness itself (mortal-database.ts): a process "killed" after a transaction must have
// committed that whole transaction, whatever else the process was doing meanwhile.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Database, SqlClient } from '../../../server/store/sql-client.ts';
import { mortalDatabase } from './mortal-database.ts';

/** A database that records the statements it ran; `transaction` commits only when `work` resolves. */
function recordingDatabase(): { db: Database; committed: string[] } {
  const committed: string[] = [];
  const client = (pending?: string[]): SqlClient => ({
    async query(text) {
      (pending ?? committed).push(text);
      return [];
    },
    exec: async () => {},
    async transaction(work) {
      if (pending) return work(client(pending));
      const statements: string[] = [];
      const result = await work(client(statements));
      committed.push(...statements);
      return result;
    },
  });
  return { db: Object.assign(client(), { engine: 'pglite' as const, close: async () => {} }), committed };
}

describe('the crash harness', () => {
  it('lets a transaction that ran the fatal statement commit whole while another query finishes', async () => {
    const { db: real, committed } = recordingDatabase();
    const { db, mortal } = mortalDatabase(real);
    mortal.dieAfter(/insert into effects/);
    await db.transaction(async (tx) => {
      await tx.query('insert into effects values (1)');
      // A background job's query on the same process finishes in the middle of the transaction.
      await db.query('select 1 from jobs');
      await tx.query('insert into idempotent_answers values (1)');
    });
    assert.deepEqual(committed, [
      'select 1 from jobs',
      'insert into effects values (1)',
      'insert into idempotent_answers values (1)',
    ]);
    await assert.rejects(db.query('select 1'), /killed/, 'dead once the transaction committed');
    mortal.restart();
    await db.query('select 2');
  });

  it('dies right after a fatal statement run outside a transaction', async () => {
    const { db: real } = recordingDatabase();
    const { db, mortal } = mortalDatabase(real);
    mortal.dieAfter(/update sessions/);
    await db.query('update sessions set status = 1');
    await assert.rejects(db.query('select 1'), /killed/);
  });
});
