import type { RawImage } from './decode-upright.ts';

/**
 * A pixel is coloured ink when its channels spread by at least this much and its darkest channel is
 * dark: a red or blue stamp, a coloured signature, saturated security print. Pale pastel guilloches and
 * grey print are not.
 */
const MIN_CHANNEL_SPREAD = 80;
const MAX_DARKEST_CHANNEL = 150;
/**
 * Below this share of coloured-ink pixels the black-ink view is the photo's own gray: not worth a look.
 * A stamp or a pen stroke across the zone needs few pixels to merge its characters: a real Swedish card's
 * red SPECIMEN across its first line is 0.38 % of the photo, under the 0.5 % this was until 2026-12-01.
 */
export const MIN_COLOURED_INK_SHARE = 0.001;

/**
 * The share of a photo's pixels that are coloured ink (see {@link MIN_CHANNEL_SPREAD}), sampled on every
 * fourth pixel of every fourth row: a stamp across a zone covers far more than that grid misses.
 *
 * @example
 * colouredInkShare(photo) // 0.031 on a specimen passport with a red SPECIMEN stamp
 */
export function colouredInkShare(rgb: RawImage): number {
  if (rgb.channels < 3) return 0;
  let coloured = 0;
  let sampled = 0;
  for (let y = 0; y < rgb.height; y += 4) {
    for (let x = 0; x < rgb.width; x += 4) {
      const i = (y * rgb.width + x) * rgb.channels;
      const r = rgb.data[i] as number;
      const g = rgb.data[i + 1] as number;
      const b = rgb.data[i + 2] as number;
      const darkest = Math.min(r, g, b);
      if (Math.max(r, g, b) - darkest >= MIN_CHANNEL_SPREAD && darkest <= MAX_DARKEST_CHANNEL) coloured++;
      sampled++;
    }
  }
  return sampled > 0 ? coloured / sampled : 0;
}

/**
 * The photo as only black ink shows: each pixel as bright as its brightest channel, in gray. A machine-
 * readable zone is printed black (ICAO 9303), so it keeps its contrast, while a red or blue stamp over it
 * and coloured security print wash out towards the paper; on the luminance a red stamp is as dark as
 * print and merges with the zone's glyphs (a Qatari specimen whose zone the finder could not find).
 *
 * @example
 * const view = blackInkView(photo); // 3 channels, r = g = b = max(r, g, b) of the photo
 */
export function blackInkView(rgb: RawImage): RawImage {
  if (rgb.channels < 3) return rgb;
  const pixels = rgb.width * rgb.height;
  const data = new Uint8Array(pixels * 3);
  for (let p = 0, i = 0, o = 0; p < pixels; p++, i += rgb.channels, o += 3) {
    const brightest = Math.max(rgb.data[i] as number, rgb.data[i + 1] as number, rgb.data[i + 2] as number);
    data[o] = brightest;
    data[o + 1] = brightest;
    data[o + 2] = brightest;
  }
  return { data, width: rgb.width, height: rgb.height, channels: 3 };
}
