import { analysisSize } from '../../../src/capture/quality/capture-quality.ts';
import { lumaOfRgba } from '../../../src/capture/quality/luma-image.ts';
import {
  analysisOf,
  checkPixelCount,
  DEFAULT_MAX_INPUT_PIXELS,
  supportedImageFormat,
} from '../../features/evidence/analyze-grayscale.ts';
import {
  ANALYSIS_LONG_SIDE,
  type ImageAnalyzer,
  UnprocessableImageError,
} from '../../features/evidence/image-analyzer.ts';

export interface CanvasImageAnalyzerOptions {
  /** Largest width × height accepted (default 50 MP, as the sharp analyzer). */
  maxInputPixels?: number;
}

/**
 * {@link ImageAnalyzer} on the browser's own decoder: `createImageBitmap` (EXIF orientation applied, as
 * sharp's `autoOrient`), drawn on white onto an `OffscreenCanvas` whose long side is
 * {@link ANALYSIS_LONG_SIDE}, then the same metrics as the server and the widget. The format is sniffed
 * first, so the browser never decodes SVG or anything else. For the MSW mock in the browser; values
 * are close to sharp's, not bit-identical (a different resampler).
 *
 * Unlike sharp, the browser cannot read the pixel size before decoding, so the pixel limit is checked
 * on the decoded bitmap.
 *
 * @example
 * const deps = { ...rest, images: canvasImageAnalyzer() };
 */
export function canvasImageAnalyzer(options: CanvasImageAnalyzerOptions = {}): ImageAnalyzer {
  const maxInputPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  return {
    async analyze(bytes) {
      const format = supportedImageFormat(bytes);
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(new Blob([bytes.slice()], { type: format }), {
          imageOrientation: 'from-image',
        });
      } catch (error) {
        throw new UnprocessableImageError('undecodable', 'The image could not be decoded.', { cause: error });
      }
      try {
        const { width, height } = bitmap;
        checkPixelCount(width, height, maxInputPixels);
        const size = analysisSize(width, height);
        const gray = grayscaleOf(bitmap, size.width, size.height);
        return analysisOf({ width, height, format }, gray);
      } finally {
        bitmap.close();
      }
    },
  };
}

function grayscaleOf(bitmap: ImageBitmap, width: number, height: number) {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('OffscreenCanvas 2D context unavailable.');
  // Transparent areas carry arbitrary colour values; white is what a viewer (and the sharp path) shows.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  // The widget's own luma (src/capture/quality/luma-image.ts), as its camera analysis computes it.
  return lumaOfRgba(context.getImageData(0, 0, width, height).data, width, height);
}
