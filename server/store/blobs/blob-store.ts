/**
 * Where evidence bytes live: a flat key → bytes store. Hosts pass one in `AppDeps.blobs` (files under
 * `<IDV_DATA_DIR>/blobs` on Node, memory in tests and the browser mock). The app never hands it
 * plaintext: it wraps the host's store with {@link encryptedBlobStore} first.
 *
 * Keys are `/`-separated segments of `[A-Za-z0-9_-]`, e.g. `ten_1/sandbox/sess_2/upl_3`.
 */
export interface BlobStore {
  /** Stores `bytes` under `key`, replacing any previous value; resolves once the bytes are durable. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes `key`; removing a missing key is not an error (retention may run twice). */
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/**
 * Refuses keys that could escape a directory or collide after normalisation. Every store calls it, so a
 * key that works in memory also works on disk.
 *
 * @example
 * assertBlobKey('ten_1/sandbox/sess_2/upl_3'); // ok
 * assertBlobKey('../etc/passwd'); // throws
 */
export function assertBlobKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.length > 512) throw new RangeError(`Invalid blob key: ${key}`);
}
