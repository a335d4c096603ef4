import { CELL_HEIGHT, CELL_WIDTH } from '../../../server/runtime/node/vision/mrz-cells.ts';

/**
 * A round glyph as a cell patch: an ink ring of half-width `rx` (cells are 16 px wide), with a little
 * noise (±`noiseAmplitude` / 2 per pixel) so no two are the same. OCR-B's `0` is a narrow oval, its `O` a wide one.
 */
export function ring(rx: number, seed: number, noiseAmplitude = 0.2): Float32Array {
  const patch = new Float32Array(CELL_WIDTH * CELL_HEIGHT);
  let state = seed;
  const noise = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state / 2147483648 - 0.5) * noiseAmplitude;
  };
  const ry = 9;
  for (let y = 0; y < CELL_HEIGHT; y++) {
    for (let x = 0; x < CELL_WIDTH; x++) {
      const r = Math.hypot((x + 0.5 - CELL_WIDTH / 2) / rx, (y + 0.5 - CELL_HEIGHT / 2) / ry);
      const ink = Math.abs(r - 1) < 0.22 ? 1 : 0;
      patch[y * CELL_WIDTH + x] = Math.min(1, Math.max(0, ink + noise()));
    }
  }
  return patch;
}
