import type { LumaImage } from './luma-image.ts';

/** Luma from which a pixel counts as blown out (sensor clipping leaves 250–255). */
export const CLIPPED_LUMA = 250;

/**
 * Variance of the 3×3 Laplacian (4-neighbour kernel) over the interior pixels: the classic focus
 * measure (Pech-Pacheco et al., 2000). Edges give large responses of both signs, so a sharp image has a
 * wide spread; blur flattens it towards 0. Scale-dependent, hence it is always computed on a copy of
 * the one analysis size (capture-quality.ts).
 *
 * @example
 * laplacianVariance({ pixels: new Uint8Array(9).fill(128), width: 3, height: 3 }) // 0 (flat)
 */
export function laplacianVariance({ pixels, width, height }: LumaImage): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const response =
        (pixels[i - width] as number) +
        (pixels[i + width] as number) +
        (pixels[i - 1] as number) +
        (pixels[i + 1] as number) -
        4 * (pixels[i] as number);
      sum += response;
      sumOfSquares += response * response;
    }
  }
  const count = (width - 2) * (height - 2);
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}

/**
 * Mean luma (0–255), its standard deviation (`contrast`) and how many pixels are blown out
 * (≥ {@link CLIPPED_LUMA}), in one pass.
 *
 * @example
 * luminanceStats({ pixels: new Uint8Array([0, 255]), width: 2, height: 1 }) // { brightness: 127.5, contrast: 127.5, clipped: 1 }
 */
export function luminanceStats({ pixels }: LumaImage): {
  brightness: number;
  contrast: number;
  clipped: number;
} {
  if (pixels.length === 0) return { brightness: 0, contrast: 0, clipped: 0 };
  let sum = 0;
  let sumOfSquares = 0;
  let clipped = 0;
  for (let i = 0; i < pixels.length; i++) {
    const value = pixels[i] as number;
    sum += value;
    sumOfSquares += value * value;
    if (value >= CLIPPED_LUMA) clipped++;
  }
  const mean = sum / pixels.length;
  // max(0, …): rounding can make the variance of a flat image a hair below zero.
  const contrast = Math.sqrt(Math.max(0, sumOfSquares / pixels.length - mean * mean));
  return { brightness: mean, contrast, clipped };
}

/**
 * Share (0–1) of the image that is a specular highlight: blown-out pixels (luma ≥ {@link CLIPPED_LUMA})
 * that are NOT connected to the image's border through other blown-out pixels.
 *
 * Why not every clipped pixel: a scan's white margin, a document on a white sheet or a bright window
 * behind a face are clipped too, and they all reach the border; they hide nothing of the document. A
 * reflection on a laminated card is a bright patch inside the picture. A glare band that runs off the
 * edge of a document filling the frame is missed by this measure; the reader then judges what it can
 * read, which is the lenient side to err on (a refusal that is wrong locks a person out).
 *
 * `clippedPixels`, when the caller counted them already ({@link luminanceStats}), skips the work on
 * frames with none.
 *
 * @example
 * specularRatio(scanWithWhiteMargin) // ≈ 0 though 30 % of its pixels are 255
 */
export function specularRatio({ pixels, width, height }: LumaImage, clippedPixels?: number): number {
  const count = width * height;
  // Most frames have no blown-out pixel at all: nothing to trace (the caller may know from its stats pass).
  if (count === 0 || clippedPixels === 0) return 0;
  // 0: not clipped, 1: clipped, 2: clipped and reached from the border.
  const state = new Uint8Array(count);
  let clipped = 0;
  for (let i = 0; i < count; i++) {
    if ((pixels[i] as number) >= CLIPPED_LUMA) {
      state[i] = 1;
      clipped++;
    }
  }
  if (clipped === 0) return 0;
  const stack = new Int32Array(clipped);
  let top = 0;
  const seed = (i: number) => {
    if (state[i] === 1) {
      state[i] = 2;
      stack[top++] = i;
    }
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  let reached = 0;
  while (top > 0) {
    const i = stack[--top] as number;
    reached++;
    const x = i % width;
    if (x > 0) seed(i - 1);
    if (x < width - 1) seed(i + 1);
    if (i >= width) seed(i - width);
    if (i < count - width) seed(i + width);
  }
  return (clipped - reached) / count;
}
