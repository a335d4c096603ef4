import { ANALYSIS_LONG_SIDE } from '../../../src/capture/quality/capture-quality.ts';
import { CLIPPED_LUMA } from '../../../src/capture/quality/luma-metrics.ts';
import type { SniffedImageType } from './sniff-image-type.ts';

export { ANALYSIS_LONG_SIDE };

/**
 * What the verification engine needs to know about one uploaded image. Every metric is computed on a
 * grayscale copy downscaled so its long side is about {@link ANALYSIS_LONG_SIDE} pixels, so values
 * are comparable between a 12 MP phone photo and a 2 MP webcam frame.
 */
export interface ImageAnalysis {
  /** Pixel width after EXIF orientation is applied (what a person looking at the photo sees). */
  width: number;
  height: number;
  /** Sniffed from the bytes, never taken from the upload's declared type. */
  format: SniffedImageType;
  /** Variance of the 3×3 Laplacian of the grayscale copy: low means few edges, i.e. blur. */
  sharpness: number;
  /**
   * Share (0–1) of specular highlights: pixels at luminance ≥ {@link GLARE_LUMINANCE} that do not reach
   * the image's border through other blown-out pixels (a scan's white margin or a white background does).
   */
  glareRatio: number;
  /** Mean luminance, 0 (black) to 255 (white). */
  brightness: number;
  /**
   * Standard deviation of the luminance (0 for a flat image): how much the picture varies at all. Used
   * to spot a frame with nothing in it (`no_document`). Optional so an analyzer that does not measure it
   * stays valid; without it `no_document` is simply never reported.
   */
  contrast?: number;
  /** 64-bit DCT perceptual hash (pHash) as 16 lowercase hex digits; see `perceptual-hash.ts`. */
  perceptualHash: string;
}

/** Luminance from which a pixel counts as blown out (sensor clipping leaves 250–255). */
export const GLARE_LUMINANCE = CLIPPED_LUMA;

/**
 * Turns image bytes into an {@link ImageAnalysis}. The interface is web-standard so domain code and
 * tests can depend on it; the decoding implementation lives in a runtime adapter
 * (`server/runtime/node/sharp-image-analyzer.ts` on Node).
 *
 * Implementations reject anything that is not a decodable JPEG, PNG or WebP with
 * {@link UnprocessableImageError} and nothing else, so callers can map it to 422
 * `unprocessable_image` and treat every other error as a 500.
 *
 * @example
 * try {
 *   const analysis = await deps.imageAnalyzer.analyze(bytes);
 * } catch (error) {
 *   if (error instanceof UnprocessableImageError) return problem(422, 'unprocessable_image');
 *   throw error;
 * }
 */
export interface ImageAnalyzer {
  analyze(bytes: Uint8Array): Promise<ImageAnalysis>;
}

/** Why an image was refused; for logs only, the end-user sees a generic message. */
export type UnprocessableImageReason = 'unsupported_format' | 'too_many_pixels' | 'undecodable';

/**
 * The input is not an image we can read: unknown format, corrupt, truncated, or too large to decode.
 *
 * @example
 * throw new UnprocessableImageError('undecodable', 'premature end of JPEG image', { cause: error });
 */
export class UnprocessableImageError extends Error {
  readonly reason: UnprocessableImageReason;

  constructor(reason: UnprocessableImageReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnprocessableImageError';
    this.reason = reason;
  }
}
