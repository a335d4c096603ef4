// `node server/runtime/node/embedded-database-init.ts <dir> [parent pid]`: creates an embedded database in
// <dir> (PGlite's initdb) and applies every migration, then exits; if the parent dies first, it exits at
// once and leaves <dir> half-made for the next start to discard. Run by initializeEmbeddedDatabase in a
// child process: see there for why.
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import {
  EMBEDDED_DATABASE_OPTIONS,
  keepEmbeddedDatabaseOnBaselineCompiler,
} from './embedded-database-settings.ts';
import { migrate } from '../../store/migrate.ts';
import { pgliteDatabase } from '../../store/pglite-database.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: embedded-database-init.ts <dir>');
  process.exit(64);
}
dieWithParent(Number(process.argv[3] ?? process.ppid));
keepEmbeddedDatabaseOnBaselineCompiler();
const db = await PGlite.create(dir, EMBEDDED_DATABASE_OPTIONS);
await migrate(pgliteDatabase(db));
// A checkpoint writes everything to the data files, so the server's first open has no WAL to replay
// (replaying the whole schema's WAL costs the opener as much memory as creating it).
await db.exec('CHECKPOINT');
await db.close();

/**
 * Ends this process as soon as its parent is gone, however the parent died (SIGKILL included): the
 * parent's pid comes as the second argument, and a child whose parent dies is handed to another (init or a
 * subreaper), so `process.ppid` changes. Watched from a thread of its own: initdb runs in WebAssembly on the
 * main thread for seconds at a time, when no event (an IPC `disconnect`, a pipe's end) would be seen until
 * it is done. The thread only runs a timer (a blocking read there would keep the process from exiting); it
 * compiles no WebAssembly (see node-vision-engine.ts on why several isolates doing so is unsafe).
 */
function dieWithParent(parentPid: number): void {
  const watcher = new Worker(
    `const { workerData } = require('node:worker_threads');
const check = () => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL'); };
check();
setInterval(check, 100);`,
    { eval: true, workerData: parentPid },
  );
  // The watcher never keeps the process alive once the work is done.
  watcher.unref();
}
