// `node server/runtime/node/embedded-database-init.ts <dir>`: creates an embedded database in <dir> (PGlite's
// initdb) and applies every migration, then exits. Run by initializeEmbeddedDatabase in a child process:
// see there for why.
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
keepEmbeddedDatabaseOnBaselineCompiler();
const db = await PGlite.create(dir, EMBEDDED_DATABASE_OPTIONS);
await migrate(pgliteDatabase(db));
// A checkpoint writes everything to the data files, so the server's first open has no WAL to replay
// (replaying the whole schema's WAL costs the opener as much memory as creating it).
await db.exec('CHECKPOINT');
await db.close();
