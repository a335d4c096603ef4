/**
 * Before the mock opens its IndexedDB database for the first time, fills it from the migrated image the
 * demo's Vite server makes (offline-database-image.ts), so the page runs neither initdb nor the migrations.
 * A later start finds the database and skips this; so does one after "Reset the demo" re-seed it.
 */
import { IdbFs, PGlite } from '@electric-sql/pglite';
import { DATABASE_IMAGE_PATH } from './offline-database-image.ts';

/** Set once the image is wholly in IndexedDB: a first start cut short (tab closed) is seeded again. */
const SEEDED_KEY = 'id-verify-demo:database-seeded';

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => resolve();
  });
}

/** `databaseName` as the mock names it (`startMockWorker`'s option; PGlite stores it as `/pglite/<name>`). */
export async function seedOfflineDatabase(databaseName: string): Promise<void> {
  const stored = `/pglite/${databaseName}`;
  const exists = (await indexedDB.databases()).some((database) => database.name === stored);
  if (exists && localStorage.getItem(SEEDED_KEY) === databaseName) return;
  if (exists) await deleteDatabase(stored);
  const response = await fetch(DATABASE_IMAGE_PATH);
  if (!response.ok) throw new Error(`the demo's database image answered ${response.status}`);
  const blob = await response.blob();
  const pglite = await PGlite.create({ fs: new IdbFs(databaseName), loadDataDir: blob });
  await pglite.close();
  localStorage.setItem(SEEDED_KEY, databaseName);
}
