import { isBase62, toBase62 } from '../crypto/encoding.ts';

export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

const PREFIX: Record<Environment, string> = { sandbox: 'sk_sandbox_', production: 'sk_live_' };
const KEY_ID_LENGTH = 8;
const SECRET_LENGTH = 22; // 22 base62 characters carry 130 bits
const CHECKSUM_LENGTH = 6;

/** CRC-32 (IEEE), as GitHub's token checksum: lets secret scanners reject look-alikes offline. */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i);
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function checksumOf(body: string): string {
  const value = crc32(body);
  const bytes = new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
  return toBase62(bytes).slice(-CHECKSUM_LENGTH).padStart(CHECKSUM_LENGTH, '0');
}

export interface ParsedApiKey {
  environment: Environment;
  /** The public part, safe to log and to look the key up by. */
  keyId: string;
  /** `sk_live_AbCdEfGh`: shown in lists so people can tell keys apart. */
  displayPrefix: string;
}

/**
 * Builds a key from random base62 parts: `sk_sandbox_<key id><secret><checksum>`.
 *
 * @example
 * formatApiKey('sandbox', 'AbCdEfGh', 'x'.repeat(22)) // 'sk_sandbox_AbCdEfGhxxxx…<6-char checksum>'
 */
export function formatApiKey(environment: Environment, keyId: string, secret: string): string {
  if (keyId.length !== KEY_ID_LENGTH || secret.length !== SECRET_LENGTH)
    throw new Error('Bad API key parts.');
  const body = `${PREFIX[environment]}${keyId}${secret}`;
  return body + checksumOf(body);
}

export const API_KEY_PART_LENGTHS = { keyId: KEY_ID_LENGTH, secret: SECRET_LENGTH } as const;

/** Parses and checksums a presented key; null when it cannot be one of ours (no database lookup needed). */
export function parseApiKey(presented: string): ParsedApiKey | null {
  for (const environment of ENVIRONMENTS) {
    const prefix = PREFIX[environment];
    if (!presented.startsWith(prefix)) continue;
    const rest = presented.slice(prefix.length);
    if (rest.length !== KEY_ID_LENGTH + SECRET_LENGTH + CHECKSUM_LENGTH || !isBase62(rest)) return null;
    const body = presented.slice(0, presented.length - CHECKSUM_LENGTH);
    if (checksumOf(body) !== presented.slice(-CHECKSUM_LENGTH)) return null;
    const keyId = rest.slice(0, KEY_ID_LENGTH);
    return { environment, keyId, displayPrefix: `${prefix}${keyId}` };
  }
  return null;
}
