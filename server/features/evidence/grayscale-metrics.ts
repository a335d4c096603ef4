import type { GrayscaleImage } from './grayscale-image.ts';

/**
 * Variance of the 3×3 Laplacian (4-neighbour kernel) over the interior pixels: the classic
 * focus measure (Pech-Pacheco et al., 2000). Edges give large Laplacian responses of both signs, so a
 * sharp image has a wide spread; blur flattens it towards 0. Scale-dependent, hence callers compute
 * it on a copy of fixed size.
 *
 * @example
 * laplacianVariance({ pixels: new Uint8Array(9).fill(128), width: 3, height: 3 }) // 0 (flat)
 */
export function laplacianVariance({ pixels, width, height }: GrayscaleImage): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const response =
        pixels[i - width]! + pixels[i + width]! + pixels[i - 1]! + pixels[i + 1]! - 4 * pixels[i]!;
      sum += response;
      sumOfSquares += response * response;
    }
  }
  const count = (width - 2) * (height - 2);
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}

/**
 * Mean luminance (0–255), its standard deviation (`contrast`) and the share of pixels at or above
 * `clippedFrom`, in one pass.
 *
 * @example
 * luminanceStats({ pixels: new Uint8Array([0, 255]), width: 2, height: 1 }, 250)
 * // { brightness: 127.5, clippedRatio: 0.5, contrast: 127.5 }
 */
export function luminanceStats(
  { pixels }: GrayscaleImage,
  clippedFrom: number,
): { brightness: number; clippedRatio: number; contrast: number } {
  if (pixels.length === 0) return { brightness: 0, clippedRatio: 0, contrast: 0 };
  let sum = 0;
  let sumOfSquares = 0;
  let clipped = 0;
  for (const value of pixels) {
    sum += value;
    sumOfSquares += value * value;
    if (value >= clippedFrom) clipped++;
  }
  const mean = sum / pixels.length;
  // max(0, …): rounding can make the variance of a flat image a hair below zero.
  const contrast = Math.sqrt(Math.max(0, sumOfSquares / pixels.length - mean * mean));
  return { brightness: mean, clippedRatio: clipped / pixels.length, contrast };
}
