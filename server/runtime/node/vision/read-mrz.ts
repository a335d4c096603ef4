import { MrzFormatError, parseMrz } from '../../../domain/mrz.ts';
import type { MrzReading } from '../../../features/vision/vision-engine.ts';
import type { RawImage } from './decode-upright.ts';
import { type InkMap, toGray } from './ink-components.ts';
import { chooseMrzLines, fitLineLength } from './mrz-candidates.ts';
import { MRZ_SHAPES, type MrzZone } from './mrz-zone.ts';
import { grayPng } from './raw-image-ops.ts';
import { type OcrSymbol, recognize } from './tesseract-ocr.ts';

const LETTERS_AND_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Character height (px) the zone is scaled to for tesseract's LSTM, which reads ~30 px capitals best. */
const OCR_CHAR_HEIGHT = 32;
/**
 * The zone is OCR'd at the first scale; only when a check digit still fails is it read again larger and
 * the second reading of each character added to the first as an alternative. The LSTM's slips (7 read as
 * E, 3 as 5) rarely repeat at another scale, and the check digits pick the reading that is right.
 */
const OCR_SCALES = [1, 1.35] as const;

/** The zone's box with a margin, clamped to the image. */
function zoneCrop(zone: MrzZone, map: InkMap) {
  const height = zone.lines[0]?.line.height ?? 10;
  const pitch = zone.lines[0]?.pitch ?? 10;
  const x0 = Math.max(0, Math.floor(zone.x0 - pitch));
  const y0 = Math.max(0, Math.floor(zone.y0 - 0.6 * height));
  const x1 = Math.min(map.width - 1, Math.ceil(zone.x1 + pitch));
  const y1 = Math.min(map.height - 1, Math.ceil(zone.y1 + 0.6 * height));
  return { x0, y0, width: x1 - x0 + 1, height: y1 - y0 + 1, charHeight: height };
}

/** The zone as a gray image, filler chevrons painted over with the paper's colour when `eraseFillers`. */
function zoneImage(gray: RawImage, map: InkMap, zone: MrzZone, eraseFillers: boolean): RawImage {
  const crop = zoneCrop(zone, map);
  const data = new Uint8Array(crop.width * crop.height);
  for (let y = 0; y < crop.height; y++) {
    const row = (crop.y0 + y) * gray.width + crop.x0;
    data.set(gray.data.subarray(row, row + crop.width), y * crop.width);
  }
  if (eraseFillers) {
    const paper = [...data].sort((a, b) => a - b)[Math.floor(data.length * 0.9)] ?? 255;
    for (const filler of zone.fillers) {
      for (let y = filler.y0 - 1; y <= filler.y1 + 1; y++) {
        for (let x = filler.x0 - 1; x <= filler.x1 + 1; x++) {
          const cy = y - crop.y0;
          const cx = x - crop.x0;
          if (cy < 0 || cx < 0 || cy >= crop.height || cx >= crop.width) continue;
          const label = map.labels[y * map.width + x];
          // Paint the chevron and its anti-aliased rim, never a neighbouring character's ink.
          if (label === 0 || label === filler.id) data[cy * crop.width + cx] = paper;
        }
      }
    }
  }
  return { data, width: crop.width, height: crop.height, channels: 1 };
}

interface CellReading {
  text: string;
  confidence: number;
}

/**
 * Reads the machine-readable zone found on a straightened document. The filler chevrons, which
 * tesseract's English model misreads as K, L and C, are recognised by shape and erased first; tesseract
 * then reads the letters and digits, each placed in its character cell by position. Check digits choose
 * between look-alike readings (`chooseMrzLines`). A line that could not be laid on its grid is read whole
 * with `<` allowed, its length fixed only where a filler run was miscounted.
 *
 * @example
 * await readMrz(documentRgb, ink, zone) // { lines: ['P<UTO…', 'L898902C3…'], confidence: 0.93 }
 */
export async function readMrz(document: RawImage, map: InkMap, zone: MrzZone): Promise<MrzReading> {
  const { pixels, width, height } = toGray(document);
  const gray: RawImage = { data: pixels, width, height, channels: 1 };
  const crop = zoneCrop(zone, map);
  const erased = zoneImage(gray, map, zone, true);
  const baseFactor = Math.min(3, Math.max(0.5, OCR_CHAR_HEIGHT / crop.charHeight));
  const length = MRZ_SHAPES[zone.format].length;
  const readings: CellReading[][][] = zone.lines.map(() => Array.from({ length }, () => []));
  let wholeLines: Promise<string[]> | undefined;
  const whole = () => {
    wholeLines ??= readWholeLines(gray, map, zone, baseFactor);
    return wholeLines;
  };
  let reading: MrzReading | null = null;
  for (const scale of OCR_SCALES) {
    const factor = baseFactor * scale;
    const ocr = await recognize(await grayPng(erased, factor), {
      whitelist: LETTERS_AND_DIGITS,
      pageSegmentation: '6',
    });
    for (const symbol of ocr.symbols) placeSymbol(symbol, zone, crop, factor, readings);
    reading = await assemble(zone, readings, whole);
    if (checksPass(reading.lines)) break;
  }
  return reading as MrzReading;
}

/** Every check digit and field of the lines is valid. */
function checksPass(lines: readonly string[]): boolean {
  try {
    return parseMrz(lines.join('\n')).valid;
  } catch (error) {
    if (error instanceof MrzFormatError) return false;
    throw error;
  }
}

/** The zone's text from the readings gathered so far (see {@link readMrz}). */
async function assemble(
  zone: MrzZone,
  readings: CellReading[][][],
  whole: () => Promise<string[]>,
): Promise<MrzReading> {
  const length = MRZ_SHAPES[zone.format].length;
  const seen: string[][][] = [];
  const confidences: number[] = [];
  for (const [index, line] of zone.lines.entries()) {
    const cells = readings[index] as CellReading[][];
    const fromCells: (string[] | null)[] = line.cells.map((cell, k) => {
      if (cell.filler) return ['<'];
      const options = [...(cells[k] as CellReading[])].sort((a, b) => b.confidence - a.confidence);
      return options.length > 0 ? options.map((option) => option.text) : null;
    });
    for (const [k, cell] of line.cells.entries()) {
      if (!cell.filler) {
        confidences.push(Math.max(0, ...(cells[k] as CellReading[]).map((option) => option.confidence)));
      }
    }
    if (line.onLattice && fromCells.every((cell) => cell !== null)) {
      seen.push(fromCells as string[][]);
      continue;
    }
    // Tesseract skipped a character (a lone I after an erased filler, say) or the line is off its grid:
    // read the line whole, with fillers, and take the missing positions from it when its length fits.
    const wholeLine = fitLineLength((await whole())[index] ?? '', length);
    if (line.onLattice && wholeLine.length === length) {
      seen.push(fromCells.map((cell, k) => cell ?? [wholeLine[k] as string]));
    } else {
      seen.push([...wholeLine].map((c) => [c]));
    }
  }
  return {
    lines: chooseMrzLines(zone.format, seen),
    confidence: confidences.length > 0 ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 0,
  };
}

/** Puts an OCR'd character in the zone cell its centre falls in (characters over a filler are noise). */
function placeSymbol(
  symbol: OcrSymbol,
  zone: MrzZone,
  crop: { x0: number; y0: number },
  factor: number,
  readings: CellReading[][][],
): void {
  if (!/^[A-Z0-9]$/.test(symbol.text)) return;
  const x = crop.x0 + (symbol.x0 + symbol.x1) / 2 / factor;
  const y = crop.y0 + (symbol.y0 + symbol.y1) / 2 / factor;
  let lineIndex = -1;
  let nearest = Number.POSITIVE_INFINITY;
  for (const [index, line] of zone.lines.entries()) {
    const distance = Math.abs(line.line.centerY - y);
    if (distance < nearest && distance <= 0.7 * line.line.height) {
      nearest = distance;
      lineIndex = index;
    }
  }
  const line = zone.lines[lineIndex];
  if (!line) return;
  const cell = Math.round((x - line.firstCenter) / line.pitch);
  if (cell < 0 || cell >= line.cells.length || line.cells[cell]?.filler) return;
  const options = readings[lineIndex]?.[cell];
  const existing = options?.find((option) => option.text === symbol.text);
  if (existing) existing.confidence = Math.max(existing.confidence, symbol.confidence);
  else options?.push({ text: symbol.text, confidence: symbol.confidence });
}

/** The fallback: the zone read line by line with `<` allowed, as tesseract sees it. */
async function readWholeLines(gray: RawImage, map: InkMap, zone: MrzZone, factor: number): Promise<string[]> {
  const ocr = await recognize(await grayPng(zoneImage(gray, map, zone, false), factor), {
    whitelist: `${LETTERS_AND_DIGITS}<`,
    pageSegmentation: '6',
  });
  return ocr.text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ''))
    .filter((line) => line.length >= 10);
}
