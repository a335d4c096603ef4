// Uncompressed Windows bitmaps (8-bit with a palette, 24- or 32-bit) as raw RGB: two specimens of the
// held-out set are BMPs, which neither the API nor sharp takes. Enough for those files, not a BMP library.

/** An image's pixels, three bytes a pixel (R, G, B), row after row from the top. */
export interface RgbPixels {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes an uncompressed BMP (BITMAPINFOHEADER or later); throws on anything else.
 *
 * @example
 * const { data, width, height } = decodeBmp(readFileSync('IR.bmp')) // 916 × 642, 3 bytes a pixel
 */
export function decodeBmp(bytes: Buffer): RgbPixels {
  if (bytes.toString('latin1', 0, 2) !== 'BM') throw new Error('not a BMP: no "BM" signature');
  const pixelsAt = bytes.readUInt32LE(10);
  const headerSize = bytes.readUInt32LE(14);
  const width = bytes.readInt32LE(18);
  const signedHeight = bytes.readInt32LE(22);
  const bits = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  if (headerSize < 40 || width <= 0 || signedHeight === 0) throw new Error('unsupported BMP header');
  // BI_RGB (0) is uncompressed; BI_BITFIELDS (3) at 32 bits is the usual BGRX layout.
  if (compression !== 0 && !(compression === 3 && bits === 32))
    throw new Error(`compressed BMP (method ${compression}) is not supported`);
  if (bits !== 8 && bits !== 24 && bits !== 32) throw new Error(`${bits}-bit BMP is not supported`);
  const height = Math.abs(signedHeight);
  const bottomUp = signedHeight > 0;
  const colours = bits === 8 ? bytes.readUInt32LE(46) || 256 : 0;
  const paletteAt = 14 + headerSize;
  const rowBytes = Math.ceil((width * bits) / 32) * 4;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = pixelsAt + (bottomUp ? height - 1 - y : y) * rowBytes;
    for (let x = 0; x < width; x++) {
      let at: number;
      if (bits === 8) {
        const index = bytes[row + x] as number;
        if (index >= colours) throw new Error(`palette index ${index} out of ${colours}`);
        at = paletteAt + index * 4;
      } else {
        at = row + x * (bits / 8);
      }
      // Stored blue, green, red.
      const out = (y * width + x) * 3;
      data[out] = bytes[at + 2] as number;
      data[out + 1] = bytes[at + 1] as number;
      data[out + 2] = bytes[at] as number;
    }
  }
  return { data, width, height };
}
