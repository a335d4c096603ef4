import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Tesseract from 'tesseract.js';
import { packageDir, packageVersion } from './package-paths.ts';

/** One recognised character and where it is, in the pixels of the image passed in. */
export interface OcrSymbol {
  text: string;
  /** 0–1. */
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One recognised word: its characters, in order. */
export interface OcrWord {
  text: string;
  symbols: OcrSymbol[];
}

export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0–1. */
  confidence: number;
  symbols: OcrSymbol[];
  words: OcrWord[];
}

export interface OcrSettings {
  /** Characters allowed; empty for all. */
  whitelist: string;
  /**
   * Tesseract page segmentation mode: 3 = automatic, 6 = one uniform block of text, 7 = one line, 11 =
   * sparse text (as many words as can be found, in no particular order: a document's printed fields).
   */
  pageSegmentation: '3' | '6' | '7' | '11';
}

/** The traineddata: LSTM "best" accuracy, integer-quantised (smaller and faster than float best). */
const TRAINEDDATA = '4.0.0_best_int';

let worker: Promise<Tesseract.Worker> | undefined;

function startWorker(): Promise<Tesseract.Worker> {
  return Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: join(packageDir('@tesseract.js-data/eng'), TRAINEDDATA),
    // Read from node_modules every time; never write a cache file next to the server.
    cacheMethod: 'none',
    gzip: true,
    workerPath: fileURLToPath(new URL('./tesseract-worker-entry.ts', import.meta.url)),
    // Unused on Node (the worker requires tesseract.js-core from node_modules), set so nothing points at a CDN.
    corePath: packageDir('tesseract.js-core'),
    workerBlobURL: false,
  });
}

/**
 * Recognises text with the thread's one long-lived tesseract.js worker, created on first use (about half
 * a second; it keeps ~60 MB). Calls are serialised by the vision worker, which runs one job at a time.
 *
 * @example
 * const { text, symbols } = await recognize(png, { whitelist: 'ABC…0123456789', pageSegmentation: '6' });
 */
export async function recognize(image: Buffer, settings: OcrSettings): Promise<OcrResult> {
  worker ??= startWorker().catch((error: unknown) => {
    worker = undefined;
    throw error;
  });
  const ocr = await worker;
  try {
    await ocr.setParameters({
      tessedit_char_whitelist: settings.whitelist,
      tessedit_pageseg_mode: settings.pageSegmentation as Tesseract.PSM,
      // The images are crops and scans of unknown resolution; this only silences the "invalid resolution" guess.
      user_defined_dpi: '300',
    });
    const { data } = await ocr.recognize(image, {}, { text: true, blocks: true });
    const words: OcrWord[] = [];
    for (const block of data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          for (const word of line.words) {
            const symbols = word.symbols.map((symbol) => ({
              text: symbol.text,
              confidence: symbol.confidence / 100,
              ...symbol.bbox,
            }));
            words.push({ text: symbols.map((symbol) => symbol.text).join(''), symbols });
          }
        }
      }
    }
    return {
      text: data.text,
      confidence: data.confidence / 100,
      symbols: words.flatMap((word) => word.symbols),
      words,
    };
  } catch (error) {
    // A failed recognition may leave the worker in any state: start afresh next time.
    worker = undefined;
    void ocr.terminate().catch(() => {});
    throw error;
  }
}

/** The OCR model's name for `EngineInfo.models`. */
export function ocrModelName(): string {
  return `tesseract-eng-${TRAINEDDATA}@tesseract.js-${packageVersion('tesseract.js')}`;
}
