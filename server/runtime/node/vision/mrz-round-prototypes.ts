/**
 * A third, independent reading of a doubtful `0` or `O`: the same zone's own print.
 *
 * One zone is printed by one printer in one font at one size, so its `0`s look alike and its `O`s look
 * alike, whatever the font, the wear or the camera made of them. Where the layout says which it must be
 * (a date or a check digit holds a `0`, a name or a state code an `O`), the zone shows both glyphs as this
 * document prints them. A doubtful round glyph where either may stand (a document or personal number) is
 * then compared with the zone's own `0` and `O`: it is settled only when it is clearly nearer the one the
 * classifier read, that is when two readers agree. Nothing is changed: a glyph nearer the other one, or
 * between the two, stays doubtful.
 *
 * The glyph classifier and Tesseract learned OCR-B's `0` and `O` from renders and books; at the sizes of a
 * phone photo the two differ by half a pixel of height, and both readers are unsure on real prints (real
 * specimens: `LT00000004`, `0000000033`, `ZS00001774` all read right and left unsure). The zone's own
 * glyphs carry the difference at the document's own scale and blur.
 */
import { CELL_HEIGHT, CELL_WIDTH } from './mrz-cells.ts';

/** A reference glyph needs this many clean examples in the zone (one `O` is a whole name's worth). */
const MIN_ZEROS = 2;
const MIN_OHS = 1;
/**
 * A doubtful glyph is taken as the nearer reference when its distance to it is at most this share of its
 * distance to the other: a clear preference, not a tie broken by noise.
 */
export const PROTOTYPE_MARGIN = 0.8;
/** Shifts (in patch pixels) tried when comparing a glyph with a reference: cells sit a pixel off. */
const SHIFTS = [-1, 0, 1];

/** The mean of equally sized patches. */
function meanOf(patches: readonly Float32Array[]): Float32Array {
  const mean = new Float32Array(CELL_WIDTH * CELL_HEIGHT);
  for (const patch of patches) {
    for (let i = 0; i < mean.length; i++)
      mean[i] = (mean[i] as number) + (patch[i] as number) / patches.length;
  }
  return mean;
}

/** Squared distance between a glyph and a reference, at the best of a few one-pixel shifts. */
function distance(glyph: Float32Array, reference: Float32Array): number {
  let best = Number.POSITIVE_INFINITY;
  for (const dy of SHIFTS) {
    for (const dx of SHIFTS) {
      let sum = 0;
      for (let y = 0; y < CELL_HEIGHT; y++) {
        const ry = y + dy;
        for (let x = 0; x < CELL_WIDTH; x++) {
          const rx = x + dx;
          const r =
            ry >= 0 && ry < CELL_HEIGHT && rx >= 0 && rx < CELL_WIDTH
              ? (reference[ry * CELL_WIDTH + rx] as number)
              : 0;
          const d = (glyph[y * CELL_WIDTH + x] as number) - r;
          sum += d * d;
        }
      }
      best = Math.min(best, sum);
    }
  }
  return best;
}

/** The zone's own `0` and `O`, from cells whose layout fixes them and which were read surely. */
export interface RoundReferences {
  zero: Float32Array;
  oh: Float32Array;
}

/** The references, or null when the zone prints too few of either glyph surely. */
export function roundReferences(
  zeros: readonly Float32Array[],
  ohs: readonly Float32Array[],
): RoundReferences | null {
  if (zeros.length < MIN_ZEROS || ohs.length < MIN_OHS) return null;
  return { zero: meanOf(zeros), oh: meanOf(ohs) };
}

/**
 * Which of `0` and `O` the glyph is clearly nearer to in this zone's print, or null when neither is.
 *
 * @example
 * nearerRound(cellPatch(gray, geometry, 7), references) // '0'
 */
export function nearerRound(glyph: Float32Array, references: RoundReferences): '0' | 'O' | null {
  const toZero = distance(glyph, references.zero);
  const toOh = distance(glyph, references.oh);
  if (toZero <= PROTOTYPE_MARGIN * toOh) return '0';
  if (toOh <= PROTOTYPE_MARGIN * toZero) return 'O';
  return null;
}
