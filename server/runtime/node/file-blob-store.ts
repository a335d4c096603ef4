import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { assertBlobKey, type BlobStore } from '../../store/blobs/blob-store.ts';
import { randomBase62 } from '../../crypto/primitives.ts';

/**
 * A {@link BlobStore} on the local file system, one file per key under `root` (by default
 * `<IDV_DATA_DIR>/blobs`). Writes go to a temporary file that is flushed to disk and then renamed over
 * the target, so a crash leaves either the old blob or the new one, never half a file; deleting a key
 * also removes the temporary files a crash left for it. The app stores only ciphertext here (see
 * `encryptedBlobStore`).
 *
 * @example
 * const blobs = fileBlobStore(join(config.dataDir, 'blobs'));
 */
export function fileBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return join(root, ...key.split('/'));
  };
  return {
    async put(key, bytes) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const temporary = `${target}.${randomBase62(64)}.tmp`;
      const file = await open(temporary, 'wx', 0o600);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      try {
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      const target = pathOf(key);
      await rm(target, { force: true });
      // A write cut by a crash leaves `<key>.<random>.tmp` beside it; the key's deletion (retention, or
      // the sweep of unreferenced blobs) is the moment to remove those too.
      const prefix = `${basename(target)}.`;
      let siblings: string[] = [];
      try {
        siblings = await readdir(dirname(target));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      await Promise.all(
        siblings
          .filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'))
          .map((name) => rm(join(dirname(target), name), { force: true })),
      );
    },
  };
}
