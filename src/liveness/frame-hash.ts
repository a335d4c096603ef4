import { analysisSize } from '../capture/quality/capture-quality.ts';
import { lumaOfRgba } from '../capture/quality/luma-image.ts';
import { perceptualHash } from '../capture/quality/perceptual-hash.ts';

let analysisCanvas: HTMLCanvasElement | null = null;

/**
 * The perceptual hash of a captured frame, computed as the server computes it on the upload: the same
 * luma copy at the shared analysis size, the same hash (src/capture/quality/perceptual-hash.ts). Null
 * when the canvas cannot be read.
 *
 * @example
 * frameHash(snapshotCanvas) // 'c3a51e0f9b2d4871'
 */
export function frameHash(frame: HTMLCanvasElement): string | null {
  const { width, height } = analysisSize(frame.width, frame.height);
  analysisCanvas ??= document.createElement('canvas');
  const canvas = analysisCanvas;
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  // High-quality smoothing averages every source pixel, as libvips does on the server.
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(frame, 0, 0, width, height);
  return perceptualHash(lumaOfRgba(ctx.getImageData(0, 0, width, height).data, width, height));
}
