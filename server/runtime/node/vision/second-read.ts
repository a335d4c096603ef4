import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import { type LineGeometry, RECTIFIED_CELL_WIDTH, rectifiedLine } from './mrz-cells.ts';
import { grayPng } from './raw-image-ops.ts';
import { recognize } from './tesseract-ocr.ts';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LETTERS_AND_DIGITS = `${LETTERS}0123456789`;

/**
 * A second, independent reading of one zone line: Tesseract's LSTM (a different model, trained on
 * different data) reads the line straightened cell by cell, with the cells the glyph classifier read as
 * fillers painted out (Tesseract's English model reads `<` as K, L or C). Returns, per cell, the one
 * character Tesseract placed there; a cell it left empty or read twice is absent (it drops lone letters
 * between erased fillers).
 *
 * @example
 * await secondRead(gray, geometry, 'P<POLKOWALSKA<KWIAIKOWSKA<<JOANNA<<<<<<<<<<<', { lettersOnly: true })
 * // Map { 2 => 'P', …, 18 => 'T', … }
 */
export async function secondRead(
  gray: GrayscaleImage,
  geometry: LineGeometry,
  line: string,
  options: { lettersOnly: boolean },
): Promise<Map<number, string>> {
  const fillers = new Set<number>();
  for (let k = 0; k < line.length; k++) if (line[k] === '<') fillers.add(k);
  const read = new Map<number, string>();
  if (fillers.size === line.length) return read;
  const strip = rectifiedLine(gray, geometry, line.length, fillers);
  const ocr = await recognize(await grayPng(strip), {
    whitelist: options.lettersOnly ? LETTERS : LETTERS_AND_DIGITS,
    pageSegmentation: '7',
  });
  const twice = new Set<number>();
  for (const symbol of ocr.symbols) {
    const k = Math.floor(((symbol.x0 + symbol.x1) / 2 - strip.margin) / RECTIFIED_CELL_WIDTH);
    if (k < 0 || k >= line.length || fillers.has(k)) continue;
    if (read.has(k)) twice.add(k);
    read.set(k, symbol.text);
  }
  for (const k of twice) read.delete(k);
  return read;
}
