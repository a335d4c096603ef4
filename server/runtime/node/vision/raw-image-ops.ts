import sharp from 'sharp';
import type { RawImage } from './decode-upright.ts';

function input(image: RawImage) {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}

async function output(pipeline: ReturnType<typeof sharp>, channels: 1 | 3): Promise<RawImage> {
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== channels) throw new Error(`Expected ${channels} channels, got ${info.channels}.`);
  return { data, width: info.width, height: info.height, channels };
}

/**
 * Turns an image clockwise by `degrees` about its centre; the canvas grows to hold every corner and the
 * new area is filled with `background` (gray level, or RGB for colour images).
 *
 * @example
 * await rotateRaw(rgb, -4.5, 255)
 */
export function rotateRaw(image: RawImage, degrees: number, background = 255): Promise<RawImage> {
  return output(
    input(image).rotate(degrees, { background: { r: background, g: background, b: background } }),
    image.channels,
  );
}

/** Where a point of an image lands after {@link rotateRaw} by `degrees`. */
export function rotatedPoint(
  image: { width: number; height: number },
  degrees: number,
  point: { x: number; y: number },
): { x: number; y: number } {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const width = Math.abs(image.width * cos) + Math.abs(image.height * sin);
  const height = Math.abs(image.width * sin) + Math.abs(image.height * cos);
  const dx = point.x - image.width / 2;
  const dy = point.y - image.height / 2;
  // Clockwise on screen is the usual rotation matrix when y points down.
  return { x: width / 2 + dx * cos - dy * sin, y: height / 2 + dx * sin + dy * cos };
}

/**
 * A rectangle of an image, clamped to it.
 *
 * @example
 * await cropRaw(rgb, { x: 10, y: 20, width: 300, height: 200 })
 */
export function cropRaw(
  image: RawImage,
  box: { x: number; y: number; width: number; height: number },
): Promise<RawImage> {
  const left = Math.max(0, Math.min(image.width - 1, Math.round(box.x)));
  const top = Math.max(0, Math.min(image.height - 1, Math.round(box.y)));
  const width = Math.max(1, Math.min(image.width - left, Math.round(box.width)));
  const height = Math.max(1, Math.min(image.height - top, Math.round(box.height)));
  return output(input(image).extract({ left, top, width, height }), image.channels);
}

/**
 * The image scaled so it fits `longSide` (enlarged too, when `enlarge`).
 *
 * @example
 * await resizeRaw(rgb, 400)
 */
export function resizeRaw(image: RawImage, longSide: number, enlarge = false): Promise<RawImage> {
  return output(
    input(image).resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: !enlarge }),
    image.channels,
  );
}

/**
 * A gray image scaled by `factor` and encoded as PNG, the form tesseract.js takes.
 *
 * @example
 * await grayPng(zone, 1.5)
 */
export function grayPng(image: RawImage, factor = 1): Promise<Buffer> {
  const pipeline = input(image);
  if (factor !== 1) {
    pipeline.resize({ width: Math.max(1, Math.round(image.width * factor)), kernel: 'cubic' });
  }
  return pipeline.toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
}
