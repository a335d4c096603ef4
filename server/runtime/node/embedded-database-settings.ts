import { setFlagsFromString } from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * PostgreSQL settings for the embedded database. PGlite keeps its shared buffers inside its WebAssembly
 * heap, which never shrinks, and defaults them to 128 MB, sized for a server with its own machine. One
 * process with one connection gains little from them (the operating system's page cache still holds the
 * data files), and the server with its vision workers has 800 MB in all, so 32 MB: measured, the open
 * database's resident memory drops by about 70 MB.
 */
export const EMBEDDED_DATABASE_OPTIONS: PGliteOptions = {
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
};

/**
 * Keeps PostgreSQL's WebAssembly on V8's baseline compiler (Liftoff) in this process. V8 recompiles hot
 * WebAssembly functions with its optimising compiler, and PostgreSQL's largest functions (the SQL parser,
 * the expression interpreter) cost that compiler about 500 MB while it works: measured on 12,000 queries,
 * the process peaked at 753 MB with tier-up and at 308 MB without, for 5 % more CPU per query (the time
 * goes to JavaScript around the queries, not to PostgreSQL's code). Call before the first PGlite opens; it
 * applies to WebAssembly compiled afterwards in this process only (the vision workers are other processes
 * and keep their optimised models).
 */
export function keepEmbeddedDatabaseOnBaselineCompiler(): void {
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}
