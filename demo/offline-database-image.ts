/**
 * The offline demo's first start, made short: an empty id-verify database, migrated, as a PGlite data
 * directory image (gzipped tar), made here in Node by `npm run demo:offline`'s Vite server (demo/vite.config.ts
 * serves it at DATABASE_IMAGE_PATH) with the server's own migrations. The page loads it into IndexedDB
 * before the mock opens its database (offline-runtime.ts), instead of running PostgreSQL's initdb and every
 * migration in the page, each write flushed to IndexedDB: that was most of the ~20 s cold start, and
 * the race between those flushes threw the `ErrnoError` the page reported.
 */
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '../server/store/migrate.ts';
import { pgliteDatabase } from '../server/store/pglite-database.ts';

export const DATABASE_IMAGE_PATH = '/__demo__/database.tar.gz';

let image: Promise<Uint8Array> | null = null;

/** Made once per Vite server (about a second), on the first page that asks. */
export function migratedDatabaseImage(): Promise<Uint8Array> {
  image ??= (async () => {
    const pglite = await PGlite.create();
    try {
      await migrate(pgliteDatabase(pglite));
      const dump = await pglite.dumpDataDir('gzip');
      return new Uint8Array(await dump.arrayBuffer());
    } finally {
      await pglite.close();
    }
  })();
  image.catch(() => {
    image = null;
  });
  return image;
}
