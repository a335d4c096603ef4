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
  let doomed = false;
  let dead = false;
  const refuseWhenDead = () => {
    if (dead) throw new Error('the process was killed');
  };
  const wrap = (sql: SqlClient, inTransaction: boolean): SqlClient => ({
    async query(text, params) {
      if (fatalAt?.test(text)) dead = true;
      refuseWhenDead();
      const rows = await sql.query(text, params);
      if (fatal?.test(text)) doomed = true;
      if (doomed && !inTransaction) dead = true;
      return rows as never;
    },
    exec: (script) => sql.exec(script),
    async transaction(work) {
      refuseWhenDead();
      const result = await sql.transaction((tx) => work(wrap(tx, true)));
      if (doomed && !inTransaction) dead = true;
      return result;
    },
  });
  const wrapped: Database = Object.assign(wrap(db, false), {
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
        doomed = false;
        dead = false;
      },
    },
  };
}
