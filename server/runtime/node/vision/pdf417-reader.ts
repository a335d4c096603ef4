import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { BarcodeReading } from '../../../features/vision/vision-engine.ts';
import type { RawImage } from './decode-upright.ts';
import { packageDir, packageVersion } from './package-paths.ts';

let prepared: Promise<unknown> | undefined;

/** zxing-cpp's reader, compiled to WebAssembly, instantiated from the package's own .wasm (never a CDN). */
function prepare(): Promise<unknown> {
  prepared ??= prepareZXingModule({
    overrides: {
      wasmBinary: new Uint8Array(
        readFileSync(join(packageDir('zxing-wasm'), 'dist', 'reader', 'zxing_reader.wasm')),
      ).buffer,
    },
    fireImmediately: true,
  }).catch((error: unknown) => {
    prepared = undefined;
    throw error;
  });
  return prepared;
}

/**
 * Reads a PDF417 barcode (the back of North American licences and many ID cards) with zxing-cpp, trying
 * harder and in every rotation. Null when there is none or it cannot be decoded.
 *
 * @example
 * const barcode = await readPdf417(rgb); // { format: 'PDF417', text: '@\n\x1e\rANSI 6360…' }
 */
export async function readPdf417(image: RawImage): Promise<BarcodeReading | null> {
  await prepare();
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += image.channels) {
    const r = image.data[j] as number;
    rgba[i] = r;
    rgba[i + 1] = image.channels === 3 ? (image.data[j + 1] as number) : r;
    rgba[i + 2] = image.channels === 3 ? (image.data[j + 2] as number) : r;
    rgba[i + 3] = 255;
  }
  const results = await readBarcodes(
    { data: rgba, width: image.width, height: image.height, colorSpace: 'srgb' } as ImageData,
    {
      formats: ['PDF417'],
      tryHarder: true,
      tryRotate: true,
      tryInvert: false,
      maxNumberOfSymbols: 1,
      // The bytes as encoded (AAMVA separates fields with LF, RS and CR), not zxing's readable escapes.
      textMode: 'Plain',
    },
  );
  const found = results.find((result) => result.isValid && result.text.length > 0);
  return found ? { format: 'PDF417', text: found.text } : null;
}

/** The barcode reader's name for `EngineInfo.models`. */
export function barcodeModelName(): string {
  return `zxing-cpp-pdf417@zxing-wasm-${packageVersion('zxing-wasm')}`;
}
