import { fromBase64Url, toBase64Url, utf8 } from './encoding.ts';
import { hmacSha256, randomBytes, importHmacKey } from './primitives.ts';
import { concatBytes, toBase62 } from './encoding.ts';
import { nativeCrypto, nodeBuffer, type NodeCrypto } from './native-crypto.ts';

/**
 * Encryption of personal data at rest (AES-256-GCM) plus keyed digests, all derived from the one master
 * key by HKDF so that each purpose has its own key and a leak of one derived key exposes nothing else.
 *
 * Ciphertexts are bound to their context (for example `session.metadata:sess_…`) through GCM's
 * additional data: a value copied into another row fails to decrypt instead of leaking there.
 */
export interface FieldCipher {
  encrypt(plaintext: string, context: string): Promise<string>;
  decrypt(ciphertext: string, context: string): Promise<string>;
  encryptJson(value: unknown, context: string): Promise<string>;
  decryptJson<T>(ciphertext: string, context: string): Promise<T>;
  /** Deterministic keyed digest for equality lookups on encrypted columns (a "blind index"). */
  blindIndex(value: string, purpose: string): Promise<string>;
  /** A secret derived from the master key, e.g. a verify token for a session and nonce. */
  derivedSecret(purpose: string, input: string, bits: number): Promise<string>;
}

const FORMAT_VERSION = 'v1';

/** UTF-8 bytes of `text` from Node's Buffer pool (only called on the Node path). */
function nodeUtf8(text: string): Uint8Array {
  return nodeBuffer ? nodeBuffer.from(text, 'utf8') : utf8.encode(text);
}
/** Web Crypto appends GCM's 128-bit tag to the ciphertext; the Node path writes and reads the same layout. */
const TAG_BYTES = 16;

async function deriveBits(master: CryptoKey, info: string, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: utf8.encode(info) },
    master,
    length * 8,
  );
  return new Uint8Array(bits);
}

/**
 * @example
 * const cipher = await createFieldCipher(masterKeyBytes);
 * const stored = await cipher.encryptJson({ plan: 'gold' }, 'session.metadata:sess_1');
 */
export async function createFieldCipher(
  masterKey: Uint8Array<ArrayBuffer>,
  options: { native?: NodeCrypto | undefined } = { native: nativeCrypto },
): Promise<FieldCipher> {
  if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes.');
  const native = options.native;
  const master = await crypto.subtle.importKey('raw', masterKey, 'HKDF', false, ['deriveBits']);
  const aesKeyBytes = await deriveBits(master, 'id-verify/field-encryption/v1', 32);
  const nativeAesKey = native?.createSecretKey(aesKeyBytes);
  const aesKey = await crypto.subtle.importKey('raw', aesKeyBytes, { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
  const indexKey = await importHmacKey(await deriveBits(master, 'id-verify/blind-index/v1', 32));
  const secretKey = await importHmacKey(await deriveBits(master, 'id-verify/derived-secret/v1', 32));

  const encrypt = async (plaintext: string, context: string): Promise<string> => {
    const iv = randomBytes(12);
    if (native) {
      const cipher = native.createCipheriv('aes-256-gcm', nativeAesKey!, iv);
      // Text goes in as UTF-8 through Node's own encoding: the same bytes as TextEncoder, fewer allocations.
      cipher.setAAD(nodeUtf8(context));
      const body = concatBytes(cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag());
      return `${FORMAT_VERSION}.${toBase64Url(iv)}.${toBase64Url(body)}`;
    }
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: utf8.encode(context) },
      aesKey,
      utf8.encode(plaintext),
    );
    return `${FORMAT_VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
  };

  const decrypt = async (ciphertext: string, context: string): Promise<string> => {
    const [version, iv, sealed] = ciphertext.split('.');
    if (version !== FORMAT_VERSION || !iv || !sealed) throw new Error('Unrecognised ciphertext format.');
    if (native) {
      const body = fromBase64Url(sealed);
      if (body.length < TAG_BYTES) throw new Error('Unrecognised ciphertext format.');
      const decipher = native.createDecipheriv('aes-256-gcm', nativeAesKey!, fromBase64Url(iv));
      decipher.setAAD(nodeUtf8(context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      // GCM is a stream mode: `final` adds no bytes (it checks the tag), so no character is split between
      // the two, and malformed UTF-8 becomes U+FFFD as with TextDecoder.
      return (
        decipher.update(body.subarray(0, body.length - TAG_BYTES), undefined, 'utf8') + decipher.final('utf8')
      );
    }
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: fromBase64Url(iv) as Uint8Array<ArrayBuffer>,
        additionalData: utf8.encode(context),
      },
      aesKey,
      fromBase64Url(sealed) as Uint8Array<ArrayBuffer>,
    );
    return utf8.decode(new Uint8Array(plain));
  };

  return {
    encrypt,
    decrypt,
    encryptJson: (value, context) => encrypt(JSON.stringify(value), context),
    decryptJson: async <T>(ciphertext: string, context: string) =>
      JSON.parse(await decrypt(ciphertext, context)) as T,
    blindIndex: async (value, purpose) =>
      toBase62(await hmacSha256(indexKey, `${purpose}\u0000${value}`, native)),
    derivedSecret: async (purpose, input, bits) =>
      toBase62(
        (await hmacSha256(secretKey, `${purpose}\u0000${input}`, native)).slice(0, Math.ceil(bits / 8)),
      ),
  };
}
