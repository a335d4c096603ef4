import { assertBlobKey, type BlobStore } from './blob-store.ts';

/** A {@link BlobStore} that keeps its blobs in memory: for tests and the browser mock. */
export interface MemoryBlobStore extends BlobStore {
  /** Every stored key and its bytes, e.g. for a test that scans what reached storage. */
  entries(): IterableIterator<[string, Uint8Array]>;
}

/**
 * @example
 * const blobs = memoryBlobStore();
 * await blobs.put('a/b', new Uint8Array([1]));
 */
export function memoryBlobStore(): MemoryBlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    async put(key, bytes) {
      assertBlobKey(key);
      blobs.set(key, bytes.slice());
    },
    async get(key) {
      assertBlobKey(key);
      return blobs.get(key)?.slice() ?? null;
    },
    async delete(key) {
      assertBlobKey(key);
      blobs.delete(key);
    },
    entries: () => blobs.entries(),
  };
}
