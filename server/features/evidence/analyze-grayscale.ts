import { measureCapture } from '../../../src/capture/quality/capture-quality.ts';
import type { GrayscaleImage } from './grayscale-image.ts';
import { type ImageAnalysis, UnprocessableImageError } from './image-analyzer.ts';
import { perceptualHash } from '../../../src/capture/quality/perceptual-hash.ts';
import { type SniffedImageType, sniffImageType } from './sniff-image-type.ts';

// What every ImageAnalyzer does around its own decoder (sharp on Node, the canvas in the browser), so
// both refuse the same inputs and report the same metrics.

/** Largest width × height decoded by default: above a 48 MP phone camera, far below a decompression bomb. */
export const DEFAULT_MAX_INPUT_PIXELS = 50_000_000;

/** The format sniffed from the bytes; anything but JPEG, PNG or WebP never reaches a decoder. */
export function supportedImageFormat(bytes: Uint8Array): SniffedImageType {
  const format = sniffImageType(bytes);
  if (format === null) {
    throw new UnprocessableImageError('unsupported_format', 'Not a JPEG, PNG or WebP image.');
  }
  return format;
}

/** Refuses an image with no pixels or more than `maxInputPixels`, judged on its upright size. */
export function checkPixelCount(width: number, height: number, maxInputPixels: number): void {
  if (!(width > 0 && height > 0)) throw new UnprocessableImageError('undecodable', 'Image has no pixels.');
  if (width * height > maxInputPixels) {
    throw new UnprocessableImageError('too_many_pixels', `Image has more than ${maxInputPixels} pixels.`);
  }
}

/**
 * The analysis of an image of upright size `width` × `height` from its grayscale copy at the shared
 * analysis size: the widget's own metrics (src/capture/quality/), so the server judges what the widget
 * judged.
 */
export function analysisOf(
  size: { width: number; height: number; format: SniffedImageType },
  gray: GrayscaleImage,
): ImageAnalysis {
  const metrics = measureCapture(gray, size);
  return {
    width: size.width,
    height: size.height,
    format: size.format,
    sharpness: metrics.sharpness,
    glareRatio: metrics.glare,
    brightness: metrics.brightness,
    contrast: metrics.contrast,
    perceptualHash: perceptualHash(gray),
  };
}
