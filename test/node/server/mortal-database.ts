// A database wrapper that plays a process killed at a chosen statement, for the tests of what a retry
// sees after a crash (idempotent-answer-commit.test.ts and idempotent-answer-commit-all.test.ts).
import type { Database, SqlClient } from '../../../server/store/sql-client.ts';

export interface Mortal {
  /** The process dies once a statement matching this has committed (with its transaction, if any). */
  dieAfter(statement: RegExp): void;
  /** The process dies just before a statement matching this runs. */
  dieAt(statement: RegExp): void;
  /** A new process on the same database. */
  restart(): void;
}

/** `db`, with a switch that kills it: once dead, every statement is refused, as a dead process sends none. */
export function mortalDatabase(db: Database): { db: Database; mortal: Mortal } {
  let fatal: RegExp | undefined;
  let fatalAt: RegExp | undefined;
  let dead = false;
  const refuseWhenDead = () => {
    if (dead) throw new Error('the process was killed');
  };
  // A fatal statement inside a transaction kills the process when that transaction commits, not when any
  // other query of the process (a background job's) happens to finish first: that would refuse the rest of
  // the transaction and roll back the effect the test means to see committed (seen under load).
  const wrap = (sql: SqlClient, transaction?: { matched: boolean }): SqlClient => ({
    async query(text, params) {
      if (fatalAt?.test(text)) dead = true;
      refuseWhenDead();
      const rows = await sql.query(text, params);
      if (fatal?.test(text)) {
        if (transaction) transaction.matched = true;
        else dead = true;
      }
      return rows as never;
    },
    exec: (script) => sql.exec(script),
    async transaction(work) {
      refuseWhenDead();
      // A nested transaction commits with the outermost one.
      const state = transaction ?? { matched: false };
      const result = await sql.transaction((tx) => work(wrap(tx, state)));
      if (!transaction && state.matched) dead = true;
      return result;
    },
  });
  const wrapped: Database = Object.assign(wrap(db), {
    engine: db.engine,
    close: () => db.close(),
  });
  return {
    db: wrapped,
    mortal: {
      dieAfter(statement) {
        fatal = statement;
      },
      dieAt(statement) {
        fatalAt = statement;
      },
      restart() {
        fatal = undefined;
        fatalAt = undefined;
        dead = false;
      },
    },
  };
}
