import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { assertBlobKey, type BlobStore } from '../blobs/blob-store.ts';
import { randomBase62 } from '../crypto/primitives.ts';

/**
 * A {@link BlobStore} on the local file system, one file per key under `root` (by default
 * `<IDV_DATA_DIR>/blobs`). Writes go to a temporary file that is flushed to disk and then renamed over
 * the target, so a crash leaves either the old blob or the new one, never half a file. The app stores
 * only ciphertext here (see `encryptedBlobStore`).
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
      await rm(pathOf(key), { force: true });
    },
  };
}
