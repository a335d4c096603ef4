import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';

/**
 * A WebAuthn authenticator in software (ES256, attestation `none`), so the server's real verification
 * (@simplewebauthn/server) checks real signatures: nothing is mocked. It keeps a signature counter like a
 * security key, and can be told to replay an old counter (a cloned key) or sign for another origin.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  #privateKey: KeyObject;
  #x: Buffer;
  #y: Buffer;
  signCount = 0;

  readonly rpId: string;
  readonly origin: string;

  constructor(rpId: string, origin: string) {
    this.rpId = rpId;
    this.origin = origin;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const jwk = publicKey.export({ format: 'jwk' });
    this.#x = Buffer.from(jwk.x as string, 'base64url');
    this.#y = Buffer.from(jwk.y as string, 'base64url');
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  /** `navigator.credentials.create()`'s answer, as `PublicKeyCredential.toJSON()` gives it. */
  register(options: { challenge: string }, origin = this.origin) {
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, this.#x],
        [-3, this.#y],
      ]),
    );
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.#authenticatorData(0x41 | 0x04, this.signCount),
      Buffer.alloc(16),
      credentialIdLength,
      this.credentialId,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['usb'],
      },
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get()`'s answer over `challenge`; the counter goes up unless `counter` is given. */
  assert(challenge: string, options: { counter?: number; origin?: string } = {}) {
    if (options.counter === undefined) this.signCount += 1;
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge,
        origin: options.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const authenticatorData = this.#authenticatorData(0x01 | 0x04, options.counter ?? this.signCount);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]),
      this.#privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
      clientExtensionResults: {},
    };
  }

  #authenticatorData(flags: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(this.rpId).digest(), Buffer.from([flags]), count]);
  }
}

/** The CBOR (RFC 8949) subset WebAuthn needs: integers, text, bytes and maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value);
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  }
  throw new Error(`cbor: unsupported ${typeof value}`);
}
