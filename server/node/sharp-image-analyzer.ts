import sharp from 'sharp';
import {
  ANALYSIS_LONG_SIDE,
  GLARE_LUMINANCE,
  type ImageAnalysis,
  type ImageAnalyzer,
  UnprocessableImageError,
} from '../evidence/image-analyzer.ts';
import { laplacianVariance, luminanceStats } from '../evidence/grayscale-metrics.ts';
import { perceptualHash } from '../evidence/perceptual-hash.ts';
import { sniffImageType } from '../evidence/sniff-image-type.ts';

export interface SharpImageAnalyzerOptions {
  /**
   * Largest width × height decoded (default 50 MP, above a 48 MP phone camera). A 10 MB upload can
   * declare far more pixels than that (a decompression bomb); the header is checked before decoding.
   */
  maxInputPixels?: number;
}

const DEFAULT_MAX_INPUT_PIXELS = 50_000_000;

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
      const format = sniffImageType(bytes);
      if (format === null) {
        throw new UnprocessableImageError('unsupported_format', 'Not a JPEG, PNG or WebP image.');
      }
      const { width, height, gray } = await decodeGrayscale(bytes, maxInputPixels);
      const { brightness, clippedRatio, contrast } = luminanceStats(gray, GLARE_LUMINANCE);
      return {
        width,
        height,
        format,
        sharpness: laplacianVariance(gray),
        glareRatio: clippedRatio,
        brightness,
        contrast,
        perceptualHash: perceptualHash(gray),
      };
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
  if (!(width > 0 && height > 0)) throw new UnprocessableImageError('undecodable', 'Image has no pixels.');
  if (width * height > maxInputPixels) {
    throw new UnprocessableImageError('too_many_pixels', `Image has more than ${maxInputPixels} pixels.`);
  }
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
