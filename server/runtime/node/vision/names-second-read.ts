import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import { type LineGeometry, RECTIFIED_CELL_WIDTH, rectifiedLine } from './mrz-cells.ts';
import { grayPng } from './raw-image-ops.ts';
import { recognize } from './tesseract-ocr.ts';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The name positions where an independent reader disagrees with the glyph classifier. Names have no
 * check digit, so a confident slip of one model (a thin T read as I) would otherwise pass: Tesseract's
 * LSTM, a different model trained on different data, reads the same line straightened cell by cell
 * (the fillers the classifier saw painted out, since Tesseract's English model reads `<` as K, L or C),
 * and each letter it places in a cell must be the classifier's. A cell Tesseract leaves empty casts no
 * vote (it drops lone letters between erased fillers).
 *
 * @example
 * await namesSecondRead(gray, geometry, 'P<POLKOWALSKA<KWIAIKOWSKA<<JOANNA<<<<<<<<<<<', 5) // [20]
 */
export async function namesSecondRead(
  gray: GrayscaleImage,
  geometry: LineGeometry,
  line: string,
  namesFrom: number,
): Promise<number[]> {
  const fillers = new Set<number>();
  for (let k = 0; k < line.length; k++) if (line[k] === '<' || k < namesFrom) fillers.add(k);
  if (fillers.size === line.length) return [];
  const strip = rectifiedLine(gray, geometry, line.length, fillers);
  const ocr = await recognize(await grayPng(strip), { whitelist: LETTERS, pageSegmentation: '7' });
  const disagreeing = new Set<number>();
  for (const symbol of ocr.symbols) {
    const k = Math.floor(((symbol.x0 + symbol.x1) / 2 - strip.margin) / RECTIFIED_CELL_WIDTH);
    if (k < namesFrom || k >= line.length || fillers.has(k)) continue;
    if (symbol.text !== line[k]) disagreeing.add(k);
  }
  return [...disagreeing].sort((a, b) => a - b);
}
