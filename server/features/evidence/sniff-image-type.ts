/** The upload formats the API accepts (API.md §10). */
export type SniffedImageType = 'image/jpeg' | 'image/png' | 'image/webp';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const WEBP_CHUNKS = new Set(['VP8 ', 'VP8L', 'VP8X']);

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/**
 * Detects the image format from its magic bytes. The `content-type` header and the file name are
 * chosen by the client, so they are never consulted: a `.png` that is really a JPEG is a JPEG, and an
 * SVG or a PDF renamed to `.jpg` is `null`.
 *
 * Only the signature is checked; whether the rest decodes is the image analyzer's job.
 *
 * @example
 * sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])) // 'image/jpeg'
 * sniffImageType(new TextEncoder().encode('<svg …')) // null
 */
export function sniffImageType(bytes: Uint8Array): SniffedImageType | null {
  // JPEG: SOI marker (FF D8) followed by the first marker's FF.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  // WebP: a RIFF container whose form type is WEBP and whose first chunk is one of the three WebP
  // chunk kinds; "RIFF…WEBP" alone would also match a truncated header with nothing behind it.
  if (
    bytes.length >= 16 &&
    ascii(bytes, 0, 4) === 'RIFF' &&
    ascii(bytes, 8, 12) === 'WEBP' &&
    WEBP_CHUNKS.has(ascii(bytes, 12, 16))
  ) {
    return 'image/webp';
  }
  return null;
}
