import type { FieldCipher } from '../../crypto/field-cipher.ts';
import type { BlobStore } from '../../store/blobs/blob-store.ts';
import { encryptedBlobStore } from '../../store/blobs/encrypted-blob-store.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { ImageAnalyzer } from './image-analyzer.ts';

export interface EvidenceServices {
  images: ImageAnalyzer;
  /** The host's blob store behind AES-256-GCM: callers put and get plaintext, storage sees ciphertext. */
  blobs: BlobStore;
}

const cache = new WeakMap<object, WeakMap<BlobStore, BlobStore>>();

/**
 * The image analyzer and the encrypting blob store of a host. A host without them (a minimal embedding)
 * answers evidence operations with 503 rather than pretending: nothing is accepted that cannot be kept.
 */
export function evidenceServices(deps: {
  images?: ImageAnalyzer | undefined;
  blobs?: BlobStore | undefined;
  cipher: FieldCipher;
}): EvidenceServices {
  if (!deps.images || !deps.blobs) {
    throw new ApiError('service_unavailable', 'Evidence storage is not configured on this server.');
  }
  return { images: deps.images, blobs: evidenceBlobs(deps.blobs, deps) };
}

/** The encrypting view of a host's blob store, built once per store. */
export function evidenceBlobs(blobs: BlobStore, deps: { cipher: FieldCipher }): BlobStore {
  let byStore = cache.get(deps.cipher);
  if (!byStore) {
    byStore = new WeakMap();
    cache.set(deps.cipher, byStore);
  }
  let encrypted = byStore.get(blobs);
  if (!encrypted) {
    encrypted = encryptedBlobStore(blobs, deps.cipher);
    byStore.set(blobs, encrypted);
  }
  return encrypted;
}
