/**
 * An 8-bit, single-channel image, row-major, `pixels.length === width * height`. What a decoder
 * adapter hands to the pure metric functions.
 */
export interface GrayscaleImage {
  pixels: Uint8Array;
  width: number;
  height: number;
}
