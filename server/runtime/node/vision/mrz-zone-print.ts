/**
 * A third, independent reading of a doubtful character: the same zone's own print.
 *
 * One zone is printed by one printer in one font at one size, so its `T`s look alike, its `0`s look
 * alike and its `O`s look alike, whatever the font, the wear or the camera made of them. The cells read
 * surely are the document's own references; a doubtful cell is compared with the reference of the
 * character the classifier read and with those of its rivals (the other characters the classifier gave a
 * real chance there). It is settled only when it is clearly nearer the character read than every rival,
 * and every rival has a reference to be compared with: two readers agree, on this document's own glyphs.
 * A cell nearer a rival, between two, or with a rival the zone never prints surely stays doubtful.
 *
 * The round glyphs (`0`, `O`, `D`, `Q`) are read by the print outright ({@link printReading}): there the
 * classifier is least to be trusted on a print it never saw, and the check digits still judge the line
 * (any one slip among them fails its digit; two that could cancel are left to `mrz-round-slips.ts`).
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
/**
 * Two samplings of one glyph differ by at least this much, however alike the zone's own cells of it are
 * (a squared distance over the 16 × 24 patch: 2.5 % of the contrast per pixel, root mean square). A
 * spread measured on three clean cells can be smaller, and a cell of the same print just outside it is
 * still that print. Measured on half A and the main real set (2026-11-30): the zones' own spreads ran from
 * 0.08 to 12; the nearest a cell of another round glyph came to a zone's 0s was 2.8 (an `O` under motion
 * blur).
 */
export const PRINT_NOISE = 0.25;
/**
 * A print reading against the classifier is decisive when the cell is at most this share of its distance
 * to every other candidate's reference from the reading's, and every candidate has one: four times nearer,
 * not a tie broken by noise. Measured on half A and the main real set: the print's readings against the
 * classifier that were right came at 0.06 to 0.17 (and 0.44 to 0.74), the two that were wrong at 0.50 and
 * 0.51.
 */
export const DECISIVE_PRINT_MARGIN = 0.25;
/** Shifts (in patch pixels) tried when comparing a cell with a reference: cells sit a pixel off. */
const SHIFTS = [-1, 0, 1];

/**
 * The fewest sure cells of a character for {@link printReading} to read a cell as it: one or two cells
 * may be a misread themselves, or share a neighbour's smudge. Fewer still count against it: a cell
 * nearer a character's single sure cell is not read as another.
 */
export const MIN_REFERENCE_CELLS = 3;

/** One character's reference: the zone's surely read cells of it. */
export interface CharacterReference {
  cells: readonly Float32Array[];
  mean: Float32Array;
}

/** The zone's surely read cells, by character. */
export type ZoneReferences = ReadonlyMap<string, CharacterReference>;

function meanOf(patches: readonly Float32Array[]): Float32Array {
  const sum = new Float32Array(CELL_WIDTH * CELL_HEIGHT);
  for (const patch of patches)
    for (let i = 0; i < patch.length; i++) sum[i] = (sum[i] as number) + (patch[i] as number);
  return sum.map((v) => v / patches.length);
}

/** Groups the patches of the cells read surely by character; `<` (fillers) is left out. */
export function zoneReferences(sure: readonly { character: string; patch: Float32Array }[]): ZoneReferences {
  const byCharacter = new Map<string, Float32Array[]>();
  for (const { character, patch } of sure) {
    if (character === '<') continue;
    byCharacter.set(character, [...(byCharacter.get(character) ?? []), patch]);
  }
  return new Map([...byCharacter].map(([character, cells]) => [character, { cells, mean: meanOf(cells) }]));
}

/** The reference without `cell` itself (a cell read surely is one of its own character's references). */
function without(reference: CharacterReference, cell: Float32Array): CharacterReference | undefined {
  if (!reference.cells.includes(cell)) return reference;
  const cells = reference.cells.filter((other) => other !== cell);
  return cells.length === 0 ? undefined : { cells, mean: meanOf(cells) };
}

/**
 * How far this zone's sure cells of a character lie from the mean of the others, at most (the largest
 * leave-one-out distance): the range of its print in this zone.
 */
function spreadOf({ cells }: CharacterReference): number {
  return Math.max(...cells.map((cell, i) => distance(cell, meanOf(cells.filter((_, j) => j !== i)))));
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
  const toRead = distance(cell, own.mean);
  for (const rival of rivals) {
    const reference = references.get(rival);
    if (!reference || toRead > ZONE_PRINT_MARGIN * distance(cell, reference.mean)) return false;
  }
  return true;
}

/**
 * The character the zone's own print says `cell` is, among `candidates` (the character the classifier
 * read and its rivals), or null when the print does not say clearly. The cell itself is never its own
 * reference. The nearest candidate is the print's reading when the zone prints it surely at least
 * {@link MIN_REFERENCE_CELLS} times, it is clearly nearer than every other candidate the zone prints
 * surely at all ({@link ZONE_PRINT_MARGIN}), and, when some candidate is printed surely nowhere in the
 * zone, the cell lies no farther from the reading's mean than the zone's own cells of it do (its
 * spread, or {@link PRINT_NOISE} when that is less): the cell is as much that character as the zone's
 * sure ones are.
 *
 * `minReferenceCells` lowers that floor where a check digit judges the reading afterwards
 * (mrz-number-by-print.ts).
 *
 * Why: the classifier can be sure and wrong on a real print it never saw (a Canadian `0` read `D` at
 * 0.95); the zone's own `0`s, read surely elsewhere, are the better judge of this printer's `0`.
 *
 * @example
 * printReading(cell, ['D', '0'], references) // '0': within the zone's 0s, and no D in the zone to compare
 */
export function printReading(
  cell: Float32Array,
  candidates: readonly string[],
  references: ZoneReferences,
  minReferenceCells = MIN_REFERENCE_CELLS,
): string | null {
  if (candidates.length < 2) return null;
  const measured = measuredCandidates(cell, candidates, references);
  const nearest = measured[0];
  if (!nearest || nearest.reference.cells.length < minReferenceCells) return null;
  for (const other of measured.slice(1))
    if (nearest.distance > ZONE_PRINT_MARGIN * other.distance) return null;
  if (measured.length < candidates.length) {
    if (nearest.distance > Math.max(spreadOf(nearest.reference), PRINT_NOISE)) return null;
  }
  return nearest.character;
}

/**
 * Whether the print's reading `reading` of `cell` is decisive ({@link DECISIVE_PRINT_MARGIN}): every
 * other candidate has a reference in the zone (the cell itself left out), and the cell is at most that
 * share of its distance to each from the reading's. Such a reading is not one of two slips that cancel
 * under a check digit: the print does not err by that much (read-mrz.ts, settleByZonePrint).
 *
 * @example
 * printIsDecisive(cell, '0', ['O', '0'], references) // true: 0.2 from the zone's 0s, 2.8 from its O
 */
export function printIsDecisive(
  cell: Float32Array,
  reading: string,
  candidates: readonly string[],
  references: ZoneReferences,
): boolean {
  if (candidates.length < 2) return false;
  const [nearest, ...others] = measuredCandidates(cell, candidates, references);
  if (nearest?.character !== reading || others.length + 1 < candidates.length) return false;
  return others.every((other) => nearest.distance <= DECISIVE_PRINT_MARGIN * other.distance);
}

/**
 * The candidates the zone prints surely (the cell itself left out of every reference), each with its
 * reference and the cell's distance to it, nearest first.
 */
function measuredCandidates(
  cell: Float32Array,
  candidates: readonly string[],
  references: ZoneReferences,
): { character: string; reference: CharacterReference; distance: number }[] {
  return candidates
    .map((character) => {
      const reference = references.get(character);
      return { character, reference: reference && without(reference, cell) };
    })
    .filter((c): c is { character: string; reference: CharacterReference } => c.reference !== undefined)
    .map(({ character, reference }) => ({ character, reference, distance: distance(cell, reference.mean) }))
    .sort((a, b) => a.distance - b.distance);
}
