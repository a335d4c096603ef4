import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import type { VisualWord } from './mrz-visual-zone.ts';
import type { MrzZone } from './mrz-zone.ts';
import { grayPng } from './raw-image-ops.ts';
import { recognize } from './tesseract-ocr.ts';

/** The capital height Tesseract's LSTM reads best; the visual zone is enlarged towards it. */
const READ_CAP_HEIGHT = 28;
/** The most the visual zone is enlarged, and the widest it is read (time and WebAssembly memory). */
const MAX_ENLARGEMENT = 4;
const MAX_READ_WIDTH = 3000;

/**
 * The words printed above the machine-readable zone (the visual zone: names, dates, the document
 * number), read by Tesseract as sparse text with letters and digits only, in capitals as the zone prints them. The zone's own capital height
 * sets the enlargement: the visual zone's fields are printed at about its size or larger.
 *
 * @example
 * await visualZoneWords(gray, zone) // [{ text: 'OBRIEN', confidences: […] }, { text: '775306299', … }, …]
 */
export async function visualZoneWords(gray: GrayscaleImage, zone: MrzZone): Promise<VisualWord[]> {
  const cap = zone.lines[0]?.line.height ?? 0;
  const top = Math.floor(zone.y0 - cap / 2);
  if (cap <= 0 || top < 2 * cap) return [];
  const factor = Math.min(MAX_ENLARGEMENT, MAX_READ_WIDTH / gray.width, Math.max(1, READ_CAP_HEIGHT / cap));
  const above = {
    data: gray.pixels.subarray(0, top * gray.width),
    width: gray.width,
    height: top,
    channels: 1 as const,
  };
  const ocr = await recognize(await grayPng(above, factor), {
    // Lower case too: many visual zones print given names so (`Christophe`), which the zone spells in capitals.
    whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
    pageSegmentation: '11',
  });
  return ocr.words.map((word) => ({
    text: word.text.toUpperCase(),
    confidences: word.symbols.map((symbol) => symbol.confidence),
  }));
}
