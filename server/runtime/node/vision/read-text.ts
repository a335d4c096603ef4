import type { TextReading } from '../../../features/vision/vision-engine.ts';
import { decodeUpright } from './decode-upright.ts';
import { grayPng } from './raw-image-ops.ts';
import { straightenDocument } from './straighten-document.ts';
import { ocrModelName, recognize } from './tesseract-ocr.ts';

/**
 * The long side pages are read at: a bill photographed whole keeps ~16 px body text at 2000 px, which
 * tesseract reads well; more costs time and WebAssembly memory that is never given back.
 */
const PAGE_LONG_SIDE = 2000;

/**
 * Reads the text of a page (proof of address; runs inside a vision worker): straightened like a document,
 * then OCR'd whole with automatic page segmentation and no character restriction.
 *
 * @example
 * const { text, confidence } = await readText(bytes);
 */
export async function readText(bytes: Uint8Array): Promise<TextReading> {
  const photo = await decodeUpright(bytes, PAGE_LONG_SIDE);
  const { rgb } = await straightenDocument(photo.rgb);
  const ocr = await recognize(await grayPng(rgb), { whitelist: '', pageSegmentation: '3' });
  return {
    text: ocr.text.trim(),
    confidence: ocr.confidence,
    engine: { kind: 'models', models: [ocrModelName()] },
  };
}
