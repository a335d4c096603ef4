import type { FieldCipher } from '../../crypto/field-cipher.ts';
import { randomBytes } from '../../crypto/primitives.ts';
import { utf8 } from '../../crypto/encoding.ts';
import type { BlobStore } from './blob-store.ts';

/** `IDVB` + format version 1: lets a future format (or key rotation) tell blobs apart. */
const MAGIC = [0x49, 0x44, 0x56, 0x42, 0x01];
const IV_LENGTH = 12;

/**
 * The blob key is derived from the master key in two steps: the field cipher's derived-secret PRF
 * (HKDF of the master key, then HMAC with a purpose) gives 256 secret bits, and HKDF turns them into an
 * AES-256-GCM key. Blobs thus never share a key with the field encryption, and the app needs only the
 * cipher it already has, not the raw master key.
 */
async function blobKey(cipher: FieldCipher): Promise<CryptoKey> {
  const material = await cipher.derivedSecret('blob-encryption', 'aes-256-gcm/v1', 256);
  const base = await crypto.subtle.importKey('raw', utf8.encode(material), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: utf8.encode('id-verify/blob/v1') },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * Wraps a host's {@link BlobStore} so that only AES-256-GCM ciphertext reaches it. The blob key is the
 * additional data, so a blob copied to another key (another session's upload) fails to decrypt instead
 * of showing up there. A tampered or truncated blob fails too: `get` then throws, never returns garbage.
 *
 * @example
 * const blobs = encryptedBlobStore(deps.blobs, deps.cipher);
 * await blobs.put(key, imageBytes); // the host stores MAGIC ‖ iv ‖ ciphertext ‖ tag
 */
export function encryptedBlobStore(inner: BlobStore, cipher: FieldCipher): BlobStore {
  const key = blobKey(cipher);
  return {
    async put(name, bytes) {
      const iv = randomBytes(IV_LENGTH);
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: 'AES-GCM', iv, additionalData: utf8.encode(name) },
          await key,
          bytes as Uint8Array<ArrayBuffer>,
        ),
      );
      const stored = new Uint8Array(MAGIC.length + IV_LENGTH + sealed.length);
      stored.set(MAGIC);
      stored.set(iv, MAGIC.length);
      stored.set(sealed, MAGIC.length + IV_LENGTH);
      await inner.put(name, stored);
    },
    async get(name) {
      const stored = await inner.get(name);
      if (stored === null) return null;
      if (stored.length < MAGIC.length + IV_LENGTH || MAGIC.some((byte, index) => stored[index] !== byte)) {
        throw new Error(`Blob ${name} is not in the encrypted format.`);
      }
      const iv = stored.slice(MAGIC.length, MAGIC.length + IV_LENGTH);
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv, additionalData: utf8.encode(name) },
        await key,
        stored.slice(MAGIC.length + IV_LENGTH),
      );
      return new Uint8Array(plain);
    },
    delete: (name) => inner.delete(name),
  };
}
