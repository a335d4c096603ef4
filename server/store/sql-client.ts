/**
 * The one database seam: PostgreSQL SQL with positional parameters. Two adapters implement it with the
 * same SQL: PGlite (embedded, also in the browser mock) and node-postgres (a real server).
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /** Runs `work` in one transaction; a thrown error rolls everything back. Nested calls reuse it. */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
}

/** A client that also owns its connections. */
export interface Database extends SqlClient {
  readonly engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}
