/**
 * The part of Node's `Buffer` that `@id-verify/node`'s webhook check uses (`from` a string in utf8, hex
 * or base64 or from bytes, `toString` in the same encodings, `length`), for the offline demo, where the
 * shop backend runs in the page. Installed as `globalThis.Buffer` by offline-runtime.ts only when the
 * browser has none; never loaded on Node.
 */
type Encoding = 'utf8' | 'utf-8' | 'hex' | 'base64';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function bytesOf(value: string, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case 'hex': {
      // Like Node: stops at the first pair that is not hex.
      const pairs = value.match(/^(?:[0-9a-fA-F]{2})*/)?.[0] ?? '';
      return Uint8Array.from(pairs.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
    }
    case 'base64': {
      // Node accepts both alphabets and missing padding; atob wants the standard one, padded.
      const standard = value
        .replace(/[\s]/g, '')
        .replaceAll('-', '+')
        .replaceAll('_', '/')
        .replace(/=+$/, '');
      try {
        return Uint8Array.from(atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '=')), (char) =>
          char.charCodeAt(0),
        );
      } catch {
        return new Uint8Array(0);
      }
    }
    default:
      return encoder.encode(value);
  }
}

export class BrowserBuffer extends Uint8Array {
  static override from(
    value: string | ArrayLike<number> | Iterable<number>,
    encoding?: unknown,
  ): BrowserBuffer {
    if (typeof value === 'string') return new BrowserBuffer(bytesOf(value, (encoding as Encoding) ?? 'utf8'));
    return new BrowserBuffer(Uint8Array.from(value as ArrayLike<number>));
  }

  constructor(bytes: Uint8Array | number) {
    super(typeof bytes === 'number' ? bytes : bytes.length);
    if (typeof bytes !== 'number') this.set(bytes);
  }

  override toString(encoding: Encoding = 'utf8'): string {
    if (encoding === 'hex') return [...this].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    if (encoding === 'base64') return btoa(String.fromCharCode(...this));
    return decoder.decode(this);
  }
}
