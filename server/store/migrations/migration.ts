/**
 * A versioned schema migration: plain PostgreSQL that runs unchanged on PGlite and on a server.
 * Append only: a migration that has shipped is never edited; add a new file with the next version.
 * Kept as strings (not .sql files) so the browser mock can run them without a file system.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
