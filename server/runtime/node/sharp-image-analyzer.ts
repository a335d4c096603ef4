import sharp from 'sharp';
import {
  analysisOf,
  checkPixelCount,
  DEFAULT_MAX_INPUT_PIXELS,
  supportedImageFormat,
} from '../../features/evidence/analyze-grayscale.ts';
import {
  ANALYSIS_LONG_SIDE,
  type ImageAnalysis,
  type ImageAnalyzer,
  UnprocessableImageError,
} from '../../features/evidence/image-analyzer.ts';

// Every upload is decoded once and never again, so libvips' operation cache (up to 50 MB by default)
// would only hold memory the vision workers need; the server and its workers have 800 MB in all.
sharp.cache(false);

export interface SharpImageAnalyzerOptions {
  /**
   * Largest width × height decoded (default 50 MP, above a 48 MP phone camera). A 10 MB upload can
   * declare far more pixels than that (a decompression bomb); the header is checked before decoding.
   */
  maxInputPixels?: number;
}

/**
 * {@link ImageAnalyzer} on libvips through `sharp`. The format is sniffed from the bytes first, so
 * libvips never sees SVG, PDF, TIFF or anything else it could also decode. Decoding uses
 * `failOn: 'error'`: truncated and corrupt pixel data fail, while the harmless warnings some phone
 * cameras produce ("extraneous bytes before marker") do not. JPEG shrink-on-load keeps a 12 MP photo
 * from ever being decoded at full size.
 *
 * @example
 * const analyzer = sharpImageAnalyzer();
 * const { sharpness, perceptualHash } = await analyzer.analyze(new Uint8Array(await file.arrayBuffer()));
 */
export function sharpImageAnalyzer(options: SharpImageAnalyzerOptions = {}): ImageAnalyzer {
  const maxInputPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  return {
    async analyze(bytes: Uint8Array): Promise<ImageAnalysis> {
      const format = supportedImageFormat(bytes);
      const { width, height, gray } = await decodeGrayscale(bytes, maxInputPixels);
      return analysisOf({ width, height, format }, gray);
    },
  };
}

/** Decodes to an 8-bit grayscale copy, long side ≤ ANALYSIS_LONG_SIDE; every failure is the input's. */
async function decodeGrayscale(bytes: Uint8Array, maxInputPixels: number) {
  // The header is read without sharp's pixel limit (reading it decodes no pixels), so an oversized image
  // is reported as such rather than as a generic decoding failure.
  const metadata = await sharp(bytes, { failOn: 'error', limitInputPixels: false, autoOrient: true })
    .metadata()
    .catch((error: unknown) => {
      throw new UnprocessableImageError('undecodable', describe(error), { cause: error });
    });
  // With autoOrient, a portrait photo stored landscape plus an EXIF rotation reports its upright size.
  const { width, height } = metadata.autoOrient;
  checkPixelCount(width, height, maxInputPixels);
  const image = sharp(bytes, { failOn: 'error', limitInputPixels: maxInputPixels, autoOrient: true });
  try {
    const { data, info } = await image
      // Transparent areas carry arbitrary colour values; white is what a viewer would show.
      .flatten({ background: '#ffffff' })
      .resize({
        width: ANALYSIS_LONG_SIDE,
        height: ANALYSIS_LONG_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('b-w')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`Expected 1 channel after grayscale, got ${info.channels}.`);
    return { width, height, gray: { pixels: data, width: info.width, height: info.height } };
  } catch (error) {
    throw new UnprocessableImageError('undecodable', describe(error), { cause: error });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'Image could not be decoded.';
}
