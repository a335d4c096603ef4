/**
 * An 8-bit luma (grayscale) image, row-major, `pixels.length === width * height`: what the widget draws
 * from a video frame and what the server decodes from an upload, before the one quality judgement.
 */
export interface LumaImage {
  pixels: Uint8Array;
  width: number;
  height: number;
}

/**
 * Luma of RGBA pixels (as `ImageData.data`), BT.601 weights in fixed point (77 + 150 + 29 = 256), the
 * weights libvips' `b-w` uses too, so the widget and the server see the same grey.
 *
 * @example
 * lumaOfRgba(ctx.getImageData(0, 0, w, h).data, w, h)
 */
export function lumaOfRgba(rgba: ArrayLike<number>, width: number, height: number): LumaImage {
  const pixels = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < pixels.length; i++, p += 4) {
    pixels[i] =
      ((rgba[p] as number) * 77 + (rgba[p + 1] as number) * 150 + (rgba[p + 2] as number) * 29) >> 8;
  }
  return { pixels, width, height };
}
