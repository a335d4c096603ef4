import { drawAnalysisCopy } from '../capture/analysis-copy.ts';
import { lumaOfRgba } from '../capture/quality/luma-image.ts';
import { perceptualHash } from '../capture/quality/perceptual-hash.ts';

let analysisCanvas: HTMLCanvasElement | null = null;

/**
 * The perceptual hash of a captured frame, computed as the server computes it on the upload: the same
 * luma copy at the shared analysis size, the same hash (src/capture/quality/perceptual-hash.ts). Null
 * when the canvas cannot be read.
 *
 * @example
 * frameHash(snapshotCanvas) // 'c3a51e0f9b2d4871'
 */
export function frameHash(frame: HTMLCanvasElement): string | null {
  analysisCanvas ??= document.createElement('canvas');
  const copy = drawAnalysisCopy(analysisCanvas, frame, frame.width, frame.height);
  return copy && perceptualHash(lumaOfRgba(copy.data, copy.width, copy.height));
}
