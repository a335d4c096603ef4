import { CELL_HEIGHT, CELL_WIDTH } from './mrz-cells.ts';
import { MRZ_GLYPH_WEIGHTS } from './mrz-glyph-weights.ts';
import { MRZ_GLYPH_WEIGHTS_SMALL } from './mrz-glyph-weights-small.ts';

/** The 37 characters of a machine-readable zone, in the order of the model's outputs. */
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** One fully connected layer: `out × in` weights, row by row, and `out` biases. */
export interface DenseLayer {
  inputs: number;
  outputs: number;
  weights: Float32Array;
  biases: Float32Array;
}

/**
 * The serialised form of the glyph classifier (written by `scripts/train-mrz-glyphs.ts`): per layer, its
 * sizes; the bytes hold for each layer `outputs` float32 row scales, `outputs` float32 biases, then the
 * weights as int8 (weight = int8 × its row's scale), little-endian, base64.
 */
export interface SerialisedGlyphModel {
  name: string;
  layers: readonly { inputs: number; outputs: number }[];
  data: string;
}

/** Decodes {@link SerialisedGlyphModel} into float layers. */
export function decodeGlyphModel(model: SerialisedGlyphModel): DenseLayer[] {
  const bytes = Buffer.from(model.data, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  return model.layers.map(({ inputs, outputs }) => {
    const scales = new Float32Array(outputs);
    const biases = new Float32Array(outputs);
    for (let o = 0; o < outputs; o++, offset += 4) scales[o] = view.getFloat32(offset, true);
    for (let o = 0; o < outputs; o++, offset += 4) biases[o] = view.getFloat32(offset, true);
    const weights = new Float32Array(inputs * outputs);
    for (let i = 0; i < weights.length; i++, offset++) {
      weights[i] = view.getInt8(offset) * (scales[Math.floor(i / inputs)] as number);
    }
    return { inputs, outputs, weights, biases };
  });
}

/**
 * Encodes float layers as {@link SerialisedGlyphModel} (int8 per row: the classifier file stays ~100 kB).
 */
export function encodeGlyphModel(name: string, layers: readonly DenseLayer[]): SerialisedGlyphModel {
  const size = layers.reduce((sum, l) => sum + 8 * l.outputs + l.inputs * l.outputs, 0);
  const bytes = Buffer.alloc(size);
  let offset = 0;
  for (const layer of layers) {
    const scales: number[] = [];
    for (let o = 0; o < layer.outputs; o++) {
      let max = 0;
      for (let i = 0; i < layer.inputs; i++)
        max = Math.max(max, Math.abs(layer.weights[o * layer.inputs + i] as number));
      scales.push(max > 0 ? max / 127 : 1);
    }
    for (const scale of scales) offset = bytes.writeFloatLE(scale, offset);
    for (let o = 0; o < layer.outputs; o++) offset = bytes.writeFloatLE(layer.biases[o] as number, offset);
    for (let o = 0; o < layer.outputs; o++) {
      for (let i = 0; i < layer.inputs; i++) {
        const q = Math.round((layer.weights[o * layer.inputs + i] as number) / (scales[o] as number));
        offset = bytes.writeInt8(Math.max(-127, Math.min(127, q)), offset);
      }
    }
  }
  return {
    name,
    layers: layers.map(({ inputs, outputs }) => ({ inputs, outputs })),
    data: bytes.toString('base64'),
  };
}

/**
 * The network's output for one input: ReLU between layers, softmax at the end (probabilities over
 * {@link MRZ_ALPHABET}).
 */
export function forward(layers: readonly DenseLayer[], input: Float32Array): Float32Array {
  let activation = input;
  for (const [index, layer] of layers.entries()) {
    const out = new Float32Array(layer.outputs);
    for (let o = 0; o < layer.outputs; o++) {
      let sum = layer.biases[o] as number;
      const row = o * layer.inputs;
      for (let i = 0; i < layer.inputs; i++)
        sum += (layer.weights[row + i] as number) * (activation[i] as number);
      out[o] = index < layers.length - 1 ? Math.max(0, sum) : sum;
    }
    activation = out;
  }
  return softmax(activation);
}

export function softmax(logits: Float32Array): Float32Array {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of logits) max = Math.max(max, value);
  const out = new Float32Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    out[i] = Math.exp((logits[i] as number) - max);
    sum += out[i] as number;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / sum;
  return out;
}

/**
 * Which classifier reads a zone: `standard`, trained on capitals of 8 to 40 px, or `small`, trained on
 * capitals of 5 to 9 px sampled as the reader samples a small photo (enlarged first when the zone is not
 * found at its own size). Both are written by `scripts/train-mrz-glyphs.ts`.
 */
export type GlyphModelSize = 'standard' | 'small';

const SERIALISED: Readonly<Record<GlyphModelSize, SerialisedGlyphModel>> = {
  standard: MRZ_GLYPH_WEIGHTS,
  small: MRZ_GLYPH_WEIGHTS_SMALL,
};
const decoded: Partial<Record<GlyphModelSize, DenseLayer[]>> = {};

/**
 * Probabilities over {@link MRZ_ALPHABET} for one {@link CELL_WIDTH} × {@link CELL_HEIGHT} cell patch
 * (`mrz-cells.ts`), by our own small classifier for OCR-B and other monospace faces (docs/models.md).
 *
 * @example
 * const probabilities = classifyGlyph(cellPatch(gray, geometry, 0)); // probabilities[MRZ_ALPHABET.indexOf('P')] ≈ 1
 */
export function classifyGlyph(patch: Float32Array, size: GlyphModelSize = 'standard'): Float32Array {
  if (patch.length !== CELL_WIDTH * CELL_HEIGHT) throw new Error('A glyph patch has the wrong size.');
  decoded[size] ??= decodeGlyphModel(SERIALISED[size]);
  return forward(decoded[size], patch);
}

/** The classifiers' names for `EngineInfo.models`. */
export function glyphModelNames(): string[] {
  return [MRZ_GLYPH_WEIGHTS.name, MRZ_GLYPH_WEIGHTS_SMALL.name];
}
