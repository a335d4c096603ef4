const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62_CODES = Array.from(BASE62, (char) => char.charCodeAt(0));
const LOG2_62 = Math.log2(62);

/** Four base62 digits per division pass: 62^4 × 2^24 < 2^53, so 3-byte limbs divide exactly in doubles. */
const BASE62_CHUNK = 62 ** 4;
const LIMB = 2 ** 24;

/**
 * Base62 of a byte string, fixed width for a given input length (leading zero bytes are kept).
 *
 * Long division of 3-byte limbs by 62^4 in plain numbers: ids, request ids and derived tokens are
 * encoded on every request (five times per create), and the obvious BigInt version cost several µs each
 * (bench/api profile). Digits are written from the end into a fixed-size array and turned into a string
 * once, rather than prepended one by one.
 */
export function toBase62(bytes: Uint8Array): string {
  const width = Math.ceil((bytes.length * 8) / LOG2_62);
  // Big-endian limbs; the first one takes the bytes left over from a multiple of three.
  const head = bytes.length % 3;
  const count = (bytes.length - head) / 3 + (head > 0 ? 1 : 0);
  const limbs = new Array<number>(count);
  let filled = 0;
  if (head > 0)
    limbs[filled++] = head === 1 ? (bytes[0] as number) : ((bytes[0] as number) << 8) | (bytes[1] as number);
  for (let i = head; i < bytes.length; i += 3) {
    limbs[filled++] =
      ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
  }
  const digits = new Array<number>(width);
  let position = width;
  let start = 0;
  while (start < count && position > 0) {
    let remainder = 0;
    for (let i = start; i < count; i++) {
      const accumulated = remainder * LIMB + (limbs[i] as number);
      const quotient = Math.floor(accumulated / BASE62_CHUNK);
      limbs[i] = quotient;
      remainder = accumulated - quotient * BASE62_CHUNK;
    }
    while (start < count && limbs[start] === 0) start++;
    for (let k = 0; k < 4 && position > 0; k++) {
      const quotient = Math.floor(remainder / 62);
      digits[--position] = BASE62_CODES[remainder - quotient * 62] as number;
      remainder = quotient;
    }
  }
  while (position > 0) digits[--position] = 48; // '0': fixed width
  return String.fromCharCode(...digits);
}

export function isBase62(value: string): boolean {
  return /^[0-9A-Za-z]*$/.test(value);
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64URL_VALUE = new Map([...BASE64URL].map((char, value) => [char.charCodeAt(0), value]));
const STRICT_BASE64URL = /^[A-Za-z0-9_-]*$/;
const HEX_OF_BYTE = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Unpadded base64url (RFC 4648 §5). Table-driven: every stored ciphertext goes through it. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const triple = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out +=
      BASE64URL[triple >> 18]! +
      BASE64URL[(triple >> 12) & 63]! +
      BASE64URL[(triple >> 6) & 63]! +
      BASE64URL[triple & 63]!;
  }
  const left = bytes.length - i;
  if (left === 1) {
    const byte = bytes[i] as number;
    out += BASE64URL[byte >> 2]! + BASE64URL[(byte & 3) << 4]!;
  } else if (left === 2) {
    const pair = ((bytes[i] as number) << 8) | (bytes[i + 1] as number);
    out += BASE64URL[pair >> 10]! + BASE64URL[(pair >> 4) & 63]! + BASE64URL[(pair & 15) << 2]!;
  }
  return out;
}

/** Decodes base64url; padded or standard-alphabet input takes the slower general path and also works. */
export function fromBase64Url(text: string): Uint8Array {
  if (text.length % 4 === 1 || !STRICT_BASE64URL.test(text)) return fromAnyBase64(text);
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let buffered = 0;
  let written = 0;
  for (let i = 0; i < text.length; i++) {
    buffered = ((buffered << 6) | (BASE64URL_VALUE.get(text.charCodeAt(i)) as number)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (buffered >> bits) & 0xff;
    }
  }
  return out;
}

function fromAnyBase64(text: string): Uint8Array {
  const padded = text.replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Standard (padded) base64, as Standard Webhooks uses for secrets and signatures. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes standard (padded) base64; null for anything that is not valid base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Decodes lowercase or uppercase hex; null for odd length or any non-hex character. */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX_OF_BYTE[byte];
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const utf8 = {
  encode: (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text),
  decode: (bytes: Uint8Array): string => decoder.decode(bytes),
};

export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
