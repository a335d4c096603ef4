import sharp from 'sharp';
import {
  checkPixelCount,
  DEFAULT_MAX_INPUT_PIXELS,
  supportedImageFormat,
} from '../../../features/evidence/analyze-grayscale.ts';
import { UnprocessableImageError } from '../../../features/evidence/image-analyzer.ts';

/** 8-bit pixels, row-major, `channels` interleaved (3: RGB, 1: gray). */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3;
}

export interface UprightImage {
  /** Size of the image as a person sees it (EXIF orientation applied), before any downscaling. */
  width: number;
  height: number;
  /** RGB pixels, long side at most the requested size. */
  rgb: RawImage;
}

/**
 * Decodes an upload the way `sharp-image-analyzer.ts` does, so both refuse the same inputs: the format is
 * sniffed (JPEG, PNG, WebP only), the header's pixel count is checked before any pixel is decoded, EXIF
 * orientation is applied, transparency is flattened onto white. Returns RGB pixels with the long side at
 * most `maxLongSide` (never enlarged).
 *
 * @throws {UnprocessableImageError} for anything that is not a decodable image of acceptable size.
 * @example
 * const { width, height, rgb } = await decodeUpright(bytes, 1280);
 */
export async function decodeUpright(
  bytes: Uint8Array,
  maxLongSide: number,
  maxInputPixels = DEFAULT_MAX_INPUT_PIXELS,
): Promise<UprightImage> {
  supportedImageFormat(bytes);
  const metadata = await sharp(bytes, { failOn: 'error', limitInputPixels: false, autoOrient: true })
    .metadata()
    .catch((error: unknown) => {
      throw new UnprocessableImageError('undecodable', describe(error), { cause: error });
    });
  const { width, height } = metadata.autoOrient;
  checkPixelCount(width, height, maxInputPixels);
  try {
    const { data, info } = await sharp(bytes, {
      failOn: 'error',
      limitInputPixels: maxInputPixels,
      autoOrient: true,
    })
      .flatten({ background: '#ffffff' })
      .resize({ width: maxLongSide, height: maxLongSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`Expected 3 channels, got ${info.channels}.`);
    return { width, height, rgb: { data, width: info.width, height: info.height, channels: 3 } };
  } catch (error) {
    throw new UnprocessableImageError('undecodable', describe(error), { cause: error });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'Image could not be decoded.';
}
