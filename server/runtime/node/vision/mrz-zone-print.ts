/**
 * A third, independent reading of a doubtful character: the same zone's own print.
 *
 * One zone is printed by one printer in one font at one size, so its `T`s look alike, its `0`s look
 * alike and its `O`s look alike, whatever the font, the wear or the camera made of them. The cells read
 * surely are the document's own references; a doubtful cell is compared with the reference of the
 * character the classifier read and with those of its rivals (the other characters the classifier gave a
 * real chance there). It is settled only when it is clearly nearer the character read than every rival,
 * and every rival has a reference to be compared with: two readers agree, on this document's own glyphs.
 * A cell nearer a rival, between two, or with a rival the zone never prints surely stays doubtful; nothing
 * is changed.
 *
 * Why: the glyph classifier and Tesseract learned OCR-B from renders and books; at the sizes of a phone
 * photo `0` and `O` differ by half a pixel of height, and on real prints both readers are unsure where the
 * zone itself shows the difference at the document's own scale and blur (real specimens: `0000000033` and
 * the `T` of `TEST`, read right and left unsure).
 */
import { CELL_HEIGHT, CELL_WIDTH } from './mrz-cells.ts';

/**
 * A doubtful cell is taken as the character read when its distance to that character's reference is at
 * most this share of its distance to every rival's: a clear preference, not a tie broken by noise.
 */
export const ZONE_PRINT_MARGIN = 0.8;
/** Shifts (in patch pixels) tried when comparing a cell with a reference: cells sit a pixel off. */
const SHIFTS = [-1, 0, 1];

/** The zone's surely read cells, averaged per character. */
export type ZoneReferences = ReadonlyMap<string, Float32Array>;

/** Averages the patches of the cells read surely, by character; `<` (fillers) is left out. */
export function zoneReferences(sure: readonly { character: string; patch: Float32Array }[]): ZoneReferences {
  const sums = new Map<string, { sum: Float32Array; n: number }>();
  for (const { character, patch } of sure) {
    if (character === '<') continue;
    const entry = sums.get(character) ?? { sum: new Float32Array(CELL_WIDTH * CELL_HEIGHT), n: 0 };
    for (let i = 0; i < patch.length; i++) entry.sum[i] = (entry.sum[i] as number) + (patch[i] as number);
    entry.n++;
    sums.set(character, entry);
  }
  const references = new Map<string, Float32Array>();
  for (const [character, { sum, n }] of sums)
    references.set(
      character,
      sum.map((v) => v / n),
    );
  return references;
}

/** Squared distance between a cell and a reference, at the best of a few one-pixel shifts. */
function distance(cell: Float32Array, reference: Float32Array): number {
  let best = Number.POSITIVE_INFINITY;
  for (const dy of SHIFTS) {
    for (const dx of SHIFTS) {
      let sum = 0;
      for (let y = 0; y < CELL_HEIGHT; y++) {
        const ry = y + dy;
        for (let x = 0; x < CELL_WIDTH; x++) {
          const rx = x + dx;
          const inside = ry >= 0 && ry < CELL_HEIGHT && rx >= 0 && rx < CELL_WIDTH;
          const d =
            (cell[y * CELL_WIDTH + x] as number) - (inside ? (reference[ry * CELL_WIDTH + rx] as number) : 0);
          sum += d * d;
        }
      }
      best = Math.min(best, sum);
    }
  }
  return best;
}

/**
 * Whether the zone's own print agrees that `cell` is `read` rather than any of `rivals`: false when a
 * reference is missing, when a rival is as near, or nearer.
 *
 * @example
 * printAgrees(cellPatch(gray, geometry, 3), 'T', ['I', 'Y'], references) // true: nearer the zone's T
 */
export function printAgrees(
  cell: Float32Array,
  read: string,
  rivals: readonly string[],
  references: ZoneReferences,
): boolean {
  const own = references.get(read);
  if (!own || rivals.length === 0) return false;
  const toRead = distance(cell, own);
  for (const rival of rivals) {
    const reference = references.get(rival);
    if (!reference || toRead > ZONE_PRINT_MARGIN * distance(cell, reference)) return false;
  }
  return true;
}
