import { analysisSize } from './quality/capture-quality.ts';

/**
 * The pixels of `source` (`sourceWidth` × `sourceHeight`) downscaled on `canvas` to the shared analysis
 * size, the copy the server makes of an upload: what the widget's quality judgement and its frame hash
 * are computed on. Null when the canvas cannot be read.
 *
 * @example
 * drawAnalysisCopy(canvas, video, video.videoWidth, video.videoHeight)?.data // RGBA, ≤ 640 px long side
 */
export function drawAnalysisCopy(
  canvas: HTMLCanvasElement,
  source: CanvasImageSource,
  sourceWidth: number,
  sourceHeight: number,
): ImageData | null {
  const { width, height } = analysisSize(sourceWidth, sourceHeight);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  // willReadFrequently keeps the canvas on the CPU, so getImageData does not read back from the GPU
  // on every frame (the slow path in Chromium).
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  // High-quality smoothing averages every source pixel, as libvips does on the server; the default
  // bilinear samples a few and aliases, which inflates sharpness above what the server measures.
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, width, height);
  return ctx.getImageData(0, 0, width, height);
}
