import { isStateCode, type MrzFormat } from '../../../domain/mrz.ts';
import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import type { MrzReading } from '../../../features/vision/vision-engine.ts';
import { sizeOf } from './ink-components.ts';
import {
  type CellJitter,
  cellPatch,
  type LineGeometry,
  lineGeometry,
  withShear,
  zoneLean,
} from './mrz-cells.ts';
import { classifyGlyph, type GlyphModelSize, MRZ_ALPHABET } from './mrz-glyph-model.ts';
import { MRZ_SHAPES, type MrzLine, type MrzZone } from './mrz-zone.ts';
import { isExactLine, latticeWithLostEndGlyph } from './mrz-lost-end-glyph.ts';
import { secondRead } from './second-read.ts';
import { roundSlipsCouldCancel } from './mrz-round-slips.ts';
import { printAgrees, printIsDecisive, printReading, zoneReferences } from './mrz-zone-print.ts';
import { namesInDoubt, namesRegion, visualNameConfirmations } from './mrz-visual-names.ts';
import { needsVisualNumber, numberFromVisualZone } from './mrz-visual-zone.ts';
import { numberByZonePrint } from './mrz-number-by-print.ts';
import { linesWithNumbersFailingDigits, numberBySecondRead } from './mrz-number-by-second-read.ts';
import { visualZoneWords } from './read-visual-zone.ts';

/**
 * What each position of a zone may hold (ICAO 9303 parts 4–6): `A` letters or filler, `N` digits or
 * filler (an empty check digit), `X` any; the document code's first character is `C` on a TD1 card (`A`,
 * `C` or `I`), `T` on a 36-character zone (`A`, `C` or `I` of a TD2 card, or `V` of an MRV-B visa) and `P`
 * on a 44-character zone (`P`, a passport, or `V`, an MRV-A visa); `S`, the sex, is `F`, `M`, `<` or `X` (ICAO
 * 9303's unspecified sex, which some states print). A visa's `V` is read as what it is and
 * refused by the parser, never taken for a card's or a passport's code. The layout is what the document is,
 * not a guess: reading a position as the best letter where only letters are allowed corrects nothing a
 * check digit would judge.
 */
const LAYOUTS: Readonly<Record<MrzFormat, readonly string[]>> = {
  TD1: [
    'CAAAA' + 'X'.repeat(9) + 'N' + 'X'.repeat(15),
    'NNNNNNN' + 'S' + 'NNNNNNN' + 'AAA' + 'X'.repeat(11) + 'N',
    'A'.repeat(30),
  ],
  TD2: [
    'T' + 'A'.repeat(35),
    'X'.repeat(9) + 'N' + 'AAA' + 'NNNNNNN' + 'S' + 'NNNNNNN' + 'X'.repeat(7) + 'N',
  ],
  TD3: [
    'P' + 'A'.repeat(43),
    'X'.repeat(9) + 'N' + 'AAA' + 'NNNNNNN' + 'S' + 'NNNNNNN' + 'X'.repeat(14) + 'NN',
  ],
};

/**
 * A character counts as read only when the classifier, its probabilities averaged over the cell's
 * looks, gives it at least this share among the characters its position allows, and the centred look
 * agrees. Below it the position is reported uncertain and the reading does not count as read there
 * (`parseMrz`'s `uncertain`): the check digits are never asked to pick between look-alikes.
 *
 * Names have no check digit, so they need more: {@link MIN_NAME_CONFIDENCE}; so do the issuing state,
 * the nationality and the sex ({@link inUncheckedCode}). Under a check digit a
 * single confident slip still fails the digit (its 7-3-1 weights catch every single substitution of a
 * digit and of the look-alikes), so the bar guards against two slips that happen to cancel.
 */
export const MIN_CHARACTER_CONFIDENCE = 0.75;
export const MIN_NAME_CONFIDENCE = 0.9;
/**
 * In the names (and the issuing state before them), a letter the classifier reads at this share or more
 * stands when the second reader reads another: Tesseract's English model is the weaker reader of OCR-B
 * there (it reads the `O` of a real Icelandic passport as `Q`, which the classifier reads at 0.999, and
 * the `H`s of a Dutch card as `M`, read at 0.999 and 0.985: the second stays doubtful).
 * Measured before it was set, on every letter of the names (fillers left out): at 0.995 and more the
 * classifier read 4,457 letters of the generated half A and 1,539 of the real specimens, none wrong; the
 * one sure wrong letter seen (a `D` for an `O` at 300 px) was read at 0.984.
 */
export const MIN_NAME_CONFIDENCE_OVER_SECOND_READ = 0.995;
/**
 * In the names, a letter read at this share or more (the check digits' {@link MIN_CHARACTER_CONFIDENCE})
 * counts when the second reader reads the same: the agreement of two independent readers stands in for
 * the check digit the names lack. Measured before it was set (half A and the main real set, 2026-11-30):
 * of the name letters read between this share and {@link MIN_NAME_CONFIDENCE} that Tesseract read the
 * same, 15 of 15 were right; the two wrong ones in that range (`B` read `R`, `O` read `D`, both at 300 px)
 * Tesseract did not second.
 */
export const MIN_SECONDED_NAME_CONFIDENCE = MIN_CHARACTER_CONFIDENCE;
/**
 * The smallest capital height, in the photo's own pixels, that the glyph classifier was trained on
 * (`scripts/train-mrz-glyphs.ts` renders capitals of 8 to 40 px). Below it, a zone line is about 300 px
 * wide and its shares are no longer calibrated: the two confident wrong letters of the names seen on the
 * generated sets were both there (an `O` of `WOJCIK` read `D` at 0.994 with Tesseract reading `D` too,
 * and a `K` read `X` at 0.867 that Tesseract seconded). Enlarging a small photo adds no detail, so the
 * height is measured before any enlargement. Below it the small-print classifier reads the cells (trained
 * on 5–9 px capitals sampled as this reader samples a small photo); its shares are no better calibrated
 * for the round letters of the names, so the rules below still apply.
 */
export const SMALLEST_TRAINED_CAPITAL = 8;
/**
 * Below {@link SMALLEST_TRAINED_CAPITAL}, a round letter of the names (`O`, `D`, `Q`: a pixel apart at that
 * size) stands only at this share; short of it the person confirms the names. On the generated tuning
 * set of 60 photos at 300 px (seed 3, 2026-12-01) the wrong round letters of the names came at 0.979 and
 * 0.994, and one on half A earlier at 0.984; what the bar costs is in docs/verification.md.
 */
export const MIN_SMALL_ROUND_NAME_CONFIDENCE = 0.999;
/** The round letters: the letters among {@link ROUND}. */
const ROUND_LETTERS: ReadonlySet<string> = new Set(['O', 'D', 'Q']);

/** Each cell is looked at centred and shifted and scaled a little both ways: three samplings of its ink. */
const LOOKS: readonly CellJitter[] = [
  { dx: 0, dy: 0, scale: 1 },
  { dx: 0.06, dy: -0.04, scale: 1.06 },
  { dx: -0.06, dy: 0.04, scale: 0.95 },
];

/**
 * Outside the names, a character below {@link MIN_CHARACTER_CONFIDENCE} but with at least this share
 * counts when the second reader (Tesseract) reads the same: two independent readers agreeing.
 */
const MIN_AGREED_SHARE = 0.5;

/**
 * The glyphs that blur into one another across letters and digits (`0`, `O`, `D`, `Q`). A check digit
 * catches one such slip (their values differ by 2, 11, 13, 24 or 26, never a multiple of 10), but two
 * can cancel, under the field's digit and the composite alike (two `0`s read `O` at weights 7 and 3 add
 * 240): where a letter and a digit may both stand (`X`), two or more of them in one line read under
 * {@link MIN_ROUND_CONFIDENCE} are all uncertain when their positions' weights let slips cancel
 * (mrz-round-slips.ts); the second reader may still settle them.
 */
const ROUND: ReadonlySet<string> = new Set(['0', 'O', 'D', 'Q']);
export const MIN_ROUND_CONFIDENCE = 0.95;

/**
 * The rivals of a character read: the other characters its position allows to which the classifier gave
 * at least this share. The zone's own print must find the cell nearer the character read than each
 * (mrz-zone-print.ts).
 */
const RIVAL_SHARE = 0.02;

export interface ReadMrzOptions {
  /**
   * How much the page was enlarged from the photo before its zone was found (1 when read at its own
   * size): the capital height in the photo's own pixels is what the classifier's training speaks to.
   */
  enlargement?: number;
}

/** The median capital height of the zone's lines, in the photo's own pixels. */
export function photoCapital(fitted: readonly LineGeometry[], length: number, enlargement: number): number {
  const heights = fitted
    .map((geometry) => geometry.h[0] + (geometry.h[1] * (length - 1)) / 2)
    .sort((a, b) => a - b);
  return (heights[Math.floor(heights.length / 2)] ?? 0) / enlargement;
}

/** One cell as read: what the zone-print comparison needs after the whole zone is read. */
interface CellRead {
  patch: Float32Array;
  share: number;
  rivals: string[];
  /**
   * In the names, the second reader read this cell otherwise; in small print, it read `0` where the
   * classifier read a round letter (zeroAgainstRoundLetter): no agreement can settle it, and it is no
   * reference of the zone's print.
   */
  contested: boolean;
  /** The second reader read this cell the same. */
  seconded: boolean;
}

/**
 * A cell the zone's print may take as a reference of the character read there: read surely (a round
 * glyph's bar, {@link MIN_ROUND_CONFIDENCE}) and not read otherwise by the second reader in the names.
 */
function isPrintReference(cell: CellRead): boolean {
  return cell.share >= MIN_ROUND_CONFIDENCE && !cell.contested;
}

/** The position is in the names (TD1: the third line; TD2, TD3: the first, after code and state). */
function inNames(format: MrzFormat, line: number, position: number): boolean {
  return format === 'TD1' ? line === 2 : line === 0 && position >= 5;
}

/**
 * The position holds a code no check digit covers outside the names: the issuing state, the nationality
 * and the sex (ICAO 9303 parts 4–6; positions from 0: TD1, the first line's 2–4 and the second's 7 and
 * 15–17; TD2 and TD3, the first line's 2–4 and the second's 10–12 and 20). Only the list of codes judges
 * the state and the nationality, and a slip can make another state's code, so they need the names' share
 * ({@link MIN_NAME_CONFIDENCE}) rather than the check digits' (or the second reader's agreement).
 */
export function inUncheckedCode(format: MrzFormat, line: number, position: number): boolean {
  if (line === 1 && position === SEX_POSITION[format]) return true;
  return STATE_FIELDS[format].some(
    (field) => field.line === line && position >= field.from && position < field.from + 3,
  );
}

/**
 * Where the state codes start, three characters each: the issuing state, then the nationality (ICAO 9303
 * parts 4–6, positions from 0).
 */
const STATE_FIELDS: Readonly<Record<MrzFormat, readonly { line: number; from: number }[]>> = {
  TD1: [
    { line: 0, from: 2 },
    { line: 1, from: 15 },
  ],
  TD2: [
    { line: 0, from: 2 },
    { line: 1, from: 10 },
  ],
  TD3: [
    { line: 0, from: 2 },
    { line: 1, from: 10 },
  ],
};

/** Where the sex stands on the second line (ICAO 9303 parts 4–6, positions from 0). */
const SEX_POSITION: Readonly<Record<MrzFormat, number>> = { TD1: 7, TD2: 20, TD3: 20 };

const ALLOWED: Readonly<Record<string, readonly number[]>> = {
  A: indicesOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ<'),
  N: indicesOf('0123456789<'),
  X: indicesOf(MRZ_ALPHABET),
  C: indicesOf('ACI'),
  T: indicesOf('ACIV'),
  P: indicesOf('PV'),
  S: indicesOf('FMX<'),
};

/** The characters position `position` of line `line` may hold in a zone of `format` (see LAYOUTS). */
export function allowedCharacters(format: MrzFormat, line: number, position: number): string {
  const allowed = ALLOWED[LAYOUTS[format][line]?.[position] ?? 'X'] as readonly number[];
  return allowed.map((index) => MRZ_ALPHABET[index]).join('');
}

function indicesOf(characters: string): number[] {
  return [...characters].map((c) => MRZ_ALPHABET.indexOf(c));
}

/** The allowed character with the highest probability, and that probability among the allowed ones. */
function bestAllowed(
  probabilities: Float32Array,
  allowed: readonly number[],
): { index: number; share: number } {
  let best = allowed[0] as number;
  let total = 0;
  for (const index of allowed) {
    total += probabilities[index] as number;
    if ((probabilities[index] as number) > (probabilities[best] as number)) best = index;
  }
  return { index: best, share: total > 0 ? (probabilities[best] as number) / total : 0 };
}

/** How far the pitch between a line's first and last glyph may be from its glyphs' own lattice's. */
const MAX_ENDS_PITCH_GAP = 0.06;
/** A glyph wider than this times the line's median glyph width is more than one character's ink. */
const MAX_GLYPH_WIDTH_RATIO = 1.5;

/**
 * The line's lattice when the zone finder could not count it exactly (a glyph merged or split at a
 * line's end, a pitch that changes in perspective): every MRZ position prints a character, so the
 * first and the last glyph are the first and the last cell, unless the pitch between them is more than
 * {@link MAX_ENDS_PITCH_GAP} off the glyphs' own lattice (a line's end lost): then that lattice.
 */
export function latticeFromEnds(line: MrzLine, length: number): MrzLine {
  const glyphs = line.line.glyphs;
  const widths = glyphs.map((g) => sizeOf(g).width).filter((w) => w <= line.line.height * 1.3);
  widths.sort((a, b) => a - b);
  const charWidth = widths[Math.floor(widths.length / 2)] ?? line.pitch;
  // An end glyph much wider than a character is print merged with something beside the line (a stamp,
  // a guilloche): its inner edge is the character's. Edges are inclusive pixels (a width is x1 − x0 + 1):
  // from the inner edge, the same centre as from the outer edge of a glyph one character wide.
  const firstGlyph = glyphs[0];
  const lastGlyph = glyphs[glyphs.length - 1];
  const overWide = (glyph: typeof firstGlyph) =>
    glyph !== undefined && sizeOf(glyph).width > MAX_GLYPH_WIDTH_RATIO * charWidth;
  const first = overWide(firstGlyph)
    ? (firstGlyph?.x1 ?? line.line.x0) + 1 - charWidth / 2
    : line.line.x0 + charWidth / 2;
  const last = overWide(lastGlyph)
    ? (lastGlyph?.x0 ?? line.line.x1) - 1 + charWidth / 2
    : line.line.x1 - charWidth / 2;
  const pitch = (last - first) / (length - 1);
  const cells = Array.from({ length }, () => ({ filler: false, inked: true }));
  // The glyphs' own lattice, where the line's ends disagree with it: at 6–8 px a character the tail of
  // fillers melts into runs the glyph finder drops, and stretching the cells to the last glyph found
  // would drift them a whole character by the middle of the line.
  const fittedPitch = line.pitch + line.curve * (length - 1);
  if (fittedPitch > 0 && Math.abs(pitch / fittedPitch - 1) > MAX_ENDS_PITCH_GAP) {
    return { ...line, cells, onLattice: true };
  }
  return { ...line, firstCenter: first, pitch, curve: 0, cells, onLattice: true };
}

/**
 * `IDV_MRZ_DEBUG=1`: each line as read, its geometry, its doubtful positions with their shares, and where
 * the second reader read otherwise, on stderr: to study the misses on a generated corpus. It prints the
 * zone's text: never set it on a server that reads people's documents.
 */
const DEBUG = process.env.IDV_MRZ_DEBUG === '1';

function debugLine(
  text: string,
  shares: readonly number[],
  doubtful: readonly number[],
  geometry: LineGeometry,
) {
  const pitch = geometry.x[1].toFixed(2);
  const height = geometry.h[0].toFixed(1);
  const doubts = doubtful.map((k) => `${k}:${text[k]}@${(shares[k] as number).toFixed(2)}`).join(' ');
  process.stderr.write(`mrz ${text} pitch ${pitch} cap ${height} shear ${geometry.shear ?? 0} | ${doubts}\n`);
}

/**
 * Reads the machine-readable zone cell by cell: each line's geometry is fitted from its own glyphs
 * (`mrz-cells.ts`), each character cell resampled to a fixed size three times (centred, shifted and
 * scaled a little) and classified by the glyph model; the position's layout limits the choice to letters
 * or digits where the format prescribes them. Positions whose character is not confidently read are
 * listed in `uncertain`. Tesseract reads a line again as a second, independent opinion (`second-read.ts`):
 * in the names and the issuing state on their line, which no check digit covers, a letter it reads
 * otherwise is uncertain unless the classifier is all but certain of it
 * ({@link MIN_NAME_CONFIDENCE_OVER_SECOND_READ}), and its letter is the one offered to the person where
 * the classifier is short of {@link MIN_NAME_CONFIDENCE} ({@link namesOfferedWithSecondRead}); elsewhere, a
 * character the classifier leans to counts when Tesseract reads the same; a state code the classifier reads
 * as no state's code takes Tesseract's letters where they make one ({@link stateCodesByTheList}). Outside
 * the names, a round glyph
 * (`0`, `O`, `D`, `Q`) is read as the zone's own print of it says when it says so clearly
 * (`mrz-zone-print.ts`), and a document number that fails its check digit has its round glyphs read by that
 * print, the digit then judging the one reading proposed (`mrz-number-by-print.ts`). Nothing is corrected
 * by trying look-alikes against a check digit.
 *
 * @example
 * await readMrz(gray, zone) // { lines: ['P<UTO…', 'L898902C3…'], confidence: 0.99, uncertain: [[], []] }
 */
export async function readMrz(
  gray: GrayscaleImage,
  zone: MrzZone,
  options: ReadMrzOptions = {},
): Promise<MrzReading> {
  const { length } = MRZ_SHAPES[zone.format];
  const layout = LAYOUTS[zone.format];
  const lines: string[] = [];
  const uncertain: number[][] = [];
  // Each line's cells as read, for the comparison with the zone's own print (settleByZonePrint).
  const cellReads: CellRead[][] = [];
  // Each line's second reading, where the second reader was asked (stateCodesByTheList).
  const secondReads: (ReadonlyMap<number, string> | undefined)[] = [];
  // Each line's geometry, for a second reading asked after the whole zone is read (numberBySecondRead).
  const geometries: LineGeometry[] = [];
  let sum = 0;
  let count = 0;
  const fitted = zone.lines.map((found) =>
    lineGeometry(
      isExactLine(found, length)
        ? found
        : (latticeWithLostEndGlyph(found, zone.lines, length) ?? latticeFromEnds(found, length)),
    ),
  );
  const lean = zoneLean(fitted);
  const capital = photoCapital(fitted, length, options.enlargement ?? 1);
  const belowTrainedSize = capital < SMALLEST_TRAINED_CAPITAL;
  // Below the standard classifier's trained size, the small-print one (trained on 5–9 px capitals) reads.
  const glyphModel: GlyphModelSize = belowTrainedSize ? 'small' : 'standard';
  if (DEBUG)
    process.stderr.write(`zone lean ${lean.toFixed(3)}, capital ${capital.toFixed(1)} px in the photo\n`);
  for (const [index, upright] of fitted.entries()) {
    const geometry = withShear(gray, upright, length, lean);
    geometries.push(geometry);
    let text = '';
    const doubtful: number[] = [];
    const shares: number[] = [];
    const cells: CellRead[] = [];
    for (let k = 0; k < length; k++) {
      const allowed = ALLOWED[layout[index]?.[k] ?? 'X'] as readonly number[];
      let centredPatch: Float32Array = new Float32Array(0);
      const looks = LOOKS.map((look, at) => {
        const patch = cellPatch(gray, geometry, k, look);
        if (at === 0) centredPatch = patch; // a fresh array per call, which the classifier only reads
        return classifyGlyph(patch, glyphModel);
      });
      const mean = new Float32Array(MRZ_ALPHABET.length);
      for (const look of looks) {
        for (let c = 0; c < mean.length; c++)
          mean[c] = (mean[c] as number) + (look[c] as number) / looks.length;
      }
      const best = bestAllowed(mean, allowed);
      const centred = bestAllowed(looks[0] as Float32Array, allowed);
      const confidence = centred.index === best.index ? best.share : 0;
      text += MRZ_ALPHABET[best.index];
      shares.push(confidence);
      cells.push({
        patch: centredPatch,
        share: confidence,
        rivals: rivalsOf(mean, allowed, best.index),
        contested: false,
        seconded: false,
      });
      const needed =
        inNames(zone.format, index, k) || inUncheckedCode(zone.format, index, k)
          ? MIN_NAME_CONFIDENCE
          : MIN_CHARACTER_CONFIDENCE;
      if (confidence < needed) {
        doubtful.push(k);
      }
      sum += confidence;
      count++;
    }
    if (belowTrainedSize)
      for (const k of roundNameLettersShortOfSure(zone.format, index, text, shares))
        if (!doubtful.includes(k)) doubtful.push(k);
    // Two round glyphs read short of sure in one line could be two slips that cancel: all doubtful,
    // unless no other choice of round glyphs there would pass the check digits covering them.
    const looseRound = Array.from({ length }, (_, k) => k).filter(
      (k) =>
        layout[index]?.[k] === 'X' &&
        ROUND.has(text[k] as string) &&
        !doubtful.includes(k) &&
        (shares[k] as number) < MIN_ROUND_CONFIDENCE,
    );
    if (looseRound.length >= 2 && roundSlipsCouldCancel(zone.format, index, text, looseRound))
      doubtful.push(...looseRound);
    const hasNames = zone.format === 'TD1' ? index === 2 : index === 0;
    // In small print the second reader is asked about every line that prints two round glyphs where a
    // letter or a digit may stand: its `0` against the classifier's round letter there is what catches two
    // sure slips that cancel (roundGlyphsContestedInSmallPrint).
    const smallPrintRounds =
      belowTrainedSize &&
      [...text].filter((character, k) => layout[index]?.[k] === 'X' && ROUND.has(character)).length >= 2;
    // Outside the names, a character the classifier leans to but is not sure of counts when the second
    // reader reads the same; in the names and the state before them, a letter the second reader reads
    // otherwise is doubtful unless the classifier is all but certain of it
    // (MIN_NAME_CONFIDENCE_OVER_SECOND_READ).
    const settle = doubtful.filter(
      (k) => !inNames(zone.format, index, k) && (shares[k] as number) >= MIN_AGREED_SHARE,
    );
    // Off the names line, the codes no check digit covers (the nationality, the sex, a card's issuing
    // state) are asked of the second reader too when the classifier is short of all but certain of them,
    // as the state on the names line always is (uncheckedLettersContested).
    const unsureCodes = uncheckedCodesShortOfCertain(zone.format, index, text, shares);
    if (hasNames || settle.length > 0 || unsureCodes.length > 0 || smallPrintRounds) {
      const other = await secondRead(gray, geometry, text, {
        lettersOnly: hasNames,
      });
      secondReads[index] = other;
      if (DEBUG)
        process.stderr.write(
          `second ${[...other]
            .map(([k, c]) => (c === text[k] ? '' : `${k}:${c}`))
            .filter(Boolean)
            .join(' ')} of ${other.size}\n`,
        );
      // Outside the names Tesseract's disagreement blocks nothing: its English model tells OCR-B's `0`
      // from `O` no better than chance (real specimens: every `0` of `0000000033` read `O`).
      for (const [k, character] of other) {
        const cell = cells[k] as CellRead;
        if (character === text[k]) cell.seconded = true;
        else if (inNames(zone.format, index, k)) cell.contested = true;
        else if (belowTrainedSize && zeroAgainstRoundLetter(layout[index]?.[k], text[k], character))
          cell.contested = true;
      }
      for (const k of settle) {
        if (other.get(k) === text[k]) doubtful.splice(doubtful.indexOf(k), 1);
      }
      // In the names, a letter at the check digits' share that the second reader reads the same is read
      // by two independent readers agreeing (MIN_SECONDED_NAME_CONFIDENCE).
      // Not below the classifier's trained size, where Tesseract, reading the same few pixels, seconded a
      // wrong letter (SMALLEST_TRAINED_CAPITAL).
      const seconded = belowTrainedSize ? [] : secondedNameLetters(zone.format, index, text, shares, other);
      for (const k of seconded) if (doubtful.includes(k)) doubtful.splice(doubtful.indexOf(k), 1);
      // Before the names offered take the second reader's letters: where it reads otherwise.
      for (const k of uncheckedLettersContested(zone.format, index, text, shares, other))
        if (!doubtful.includes(k)) doubtful.push(k);
      if (belowTrainedSize)
        for (const k of roundGlyphsContestedInSmallPrint(zone.format, index, text, shares, doubtful, other))
          if (!doubtful.includes(k)) doubtful.push(k);
      if (hasNames) {
        if (DEBUG) {
          const slips = [...secondReaderSlips(zone.format, index, text, shares, other)];
          if (slips.length > 0) process.stderr.write(`second reader's slips: ${slips.join(' ')}\n`);
        }
        text = namesOfferedWithSecondRead(zone.format, index, text, shares, other);
      }
    }
    lines.push(text);
    uncertain.push(doubtful.sort((a, b) => a - b));
    cellReads.push(cells);
    if (DEBUG) debugLine(text, shares, doubtful, geometry);
  }
  settleByZonePrint(zone.format, lines, cellReads, uncertain);
  for (const { line, position, character } of stateCodesByTheList(
    zone.format,
    lines,
    uncertain,
    secondReads,
  )) {
    if (DEBUG)
      process.stderr.write(
        `state code by the list: ${line}:${position} ${lines[line]?.[position]}>${character}\n`,
      );
    const text = lines[line] as string;
    lines[line] = text.slice(0, position) + character + text.slice(position + 1);
    uncertain[line] = (uncertain[line] ?? []).filter((k) => k !== position);
  }
  for (const [index, text] of lines.entries()) {
    const stray = lettersAfterNamesPadding(zone.format, index, text);
    if (stray.length > 0)
      uncertain[index] = [...new Set([...(uncertain[index] ?? []), ...stray])].sort((a, b) => a - b);
  }
  // A document number (or a passport's personal number) that fails its check digit: its round glyphs as
  // the zone's own print reads them, the check digit judging the result (mrz-number-by-print.ts).
  const byPrint = numberByZonePrint(zone.format, lines, uncertain, cellReads, isPrintReference);
  if (byPrint) {
    if (DEBUG) process.stderr.write(`number by the zone's print: ${JSON.stringify(byPrint.changed)}\n`);
    for (const [line, changed] of byPrint.changed.entries()) {
      lines[line] = byPrint.lines[line] as string;
      uncertain[line] = (uncertain[line] ?? []).filter((k) => !changed.includes(k));
    }
  }
  // A checked field that still fails its check digit: its round glyphs as the second reader reads them,
  // the check digit judging the result (mrz-number-by-second-read.ts). The second reader is asked now
  // about a line it was not asked about while the line was read.
  for (const line of linesWithNumbersFailingDigits(zone.format, lines, uncertain)) {
    const geometry = geometries[line];
    if (secondReads[line] || !geometry) continue;
    const other = await secondRead(gray, geometry, lines[line] as string, { lettersOnly: false });
    secondReads[line] = other;
    if (DEBUG)
      process.stderr.write(
        `second (asked for a number failing its digit) ${[...other]
          .map(([k, c]) => (c === lines[line]?.[k] ? '' : `${k}:${c}`))
          .filter(Boolean)
          .join(' ')} of ${other.size}\n`,
      );
  }
  const bySecondRead = numberBySecondRead(zone.format, lines, uncertain, secondReads);
  if (bySecondRead) {
    if (DEBUG) process.stderr.write(`number by the second reader: ${JSON.stringify(bySecondRead.changed)}\n`);
    for (const [line, changed] of bySecondRead.changed.entries()) {
      lines[line] = bySecondRead.lines[line] as string;
      uncertain[line] = (uncertain[line] ?? []).filter((k) => !changed.includes(k));
    }
  }
  // The document number's round glyphs, when the zone leaves them unsettled, as the visual zone prints
  // them (mrz-visual-zone.ts), and letters of the names in doubt that it spells the same
  // (mrz-visual-names.ts). Read only then: Tesseract on the whole visual zone costs ~0.3 s.
  if (needsVisualNumber(zone.format, lines, uncertain) || namesInDoubt(zone.format, uncertain)) {
    const words = await visualZoneWords(gray, zone);
    const byVisualZone = numberFromVisualZone(zone.format, lines, uncertain, words);
    if (byVisualZone) {
      lines[byVisualZone.line] = byVisualZone.text;
      uncertain[byVisualZone.line] = (uncertain[byVisualZone.line] ?? []).filter(
        (k) => !byVisualZone.settled.includes(k),
      );
    }
    const namesLine = namesRegion(zone.format).line;
    const confirmed = visualNameConfirmations(zone.format, lines, uncertain, words);
    uncertain[namesLine] = (uncertain[namesLine] ?? []).filter((k) => !confirmed.includes(k));
    if (DEBUG)
      process.stderr.write(
        `visual zone: ${words.map((word) => word.text).join(' ')} -> number ${byVisualZone?.settled ?? 'nothing'}, names ${confirmed}\n`,
      );
  }
  return { lines, confidence: count > 0 ? sum / count : 0, uncertain };
}

/**
 * The positions of line `line` that no check digit covers (the names, and the codes of
 * {@link inUncheckedCode}: the issuing state, the nationality, the sex) where the second reader reads
 * another letter than the classifier and the classifier is short of
 * {@link MIN_NAME_CONFIDENCE_OVER_SECOND_READ}: doubtful. In the names the person confirms them; in a
 * code the zone does not count as read. `shares` are the classifier's, `other` the second reader's
 * characters by position (a digit it reads where a letter stands, or a letter the field cannot hold, such
 * as an `N` where the sex stands, is no reading of another letter).
 *
 * Why the codes too: the classifier read the real Dutch `NLD` as `MLD` and an Icelandic `ISL` as `ZSL`,
 * surely, where Tesseract read them right. The list of codes refused both; a slip that makes another
 * state's code would pass it. Measured with and without on half A, half B, the main and the held-out
 * real sets: no read lost (the state on the names line, 2026-11-30; the nationality and the other
 * codes, {@link uncheckedCodesShortOfCertain}, later that day).
 *
 * @example
 * uncheckedLettersContested('TD3', 0, 'P<ISLOESP', [1, 1, 1, 1, 1, 0.999, 0.97, 1, 1], new Map([[5, 'Q'], [6, 'F']])) // [6]
 */
export function uncheckedLettersContested(
  format: MrzFormat,
  line: number,
  text: string,
  shares: readonly number[],
  other: ReadonlyMap<number, string>,
): number[] {
  const slips = secondReaderSlips(format, line, text, shares, other);
  return [...other]
    .filter(
      ([k, character]) =>
        (inNames(format, line, k) || inUncheckedCode(format, line, k)) &&
        LETTER.test(character) &&
        allowedCharacters(format, line, k).includes(character) &&
        character !== text[k] &&
        (shares[k] ?? 0) < MIN_NAME_CONFIDENCE_OVER_SECOND_READ &&
        !(
          inNames(format, line, k) &&
          (shares[k] ?? 0) >= MIN_NAME_CONFIDENCE &&
          slips.has(`${text[k]}>${character}`)
        ),
    )
    .map(([k]) => k);
}

/**
 * The letters of a state code (the issuing state, the nationality) that the two readers read
 * differently, taken as the second reader reads them when the list of codes is the judge between them:
 * the classifier's code is no state's code, and the second reader's is. Every doubtful letter of the
 * code must be one the second reader reads as another letter; a code with a letter in doubt that the
 * readers agree on, or that the second reader left unread, stays doubtful. `seconds` holds each line's
 * second reading (absent where the second reader was not asked).
 *
 * Why: the list is to a code what a check digit is to a number, and here it judges between two
 * independent readings, not among look-alikes tried until one passes. The classifier's reading being no
 * code at all shows that it slipped; the second reader's reading is one proposal, and it must be a code.
 * A real Dutch passport's bold `N` read `M` at 0.98 in both of its codes (`MLD`) that Tesseract read `N`.
 *
 * @example
 * stateCodesByTheList('TD3', lines, [[2], [10]], [new Map([[2, 'N']]), new Map([[10, 'N']])])
 * // [{ line: 0, position: 2, character: 'N' }, { line: 1, position: 10, character: 'N' }] for `MLD` twice
 */
export function stateCodesByTheList(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  seconds: readonly (ReadonlyMap<number, string> | undefined)[],
): { line: number; position: number; character: string }[] {
  const taken: { line: number; position: number; character: string }[] = [];
  for (const { line, from } of STATE_FIELDS[format]) {
    const text = lines[line] ?? '';
    const second = seconds[line];
    const doubtful = (uncertain[line] ?? []).filter((k) => k >= from && k < from + 3);
    const ours = text.slice(from, from + 3);
    if (!second || doubtful.length === 0 || isStateCode(ours)) continue;
    const contested = doubtful.every((k) => {
      const character = second.get(k);
      return character !== undefined && LETTER.test(character) && character !== text[k];
    });
    if (!contested) continue;
    const theirs = [...ours]
      .map((character, at) => (doubtful.includes(from + at) ? (second.get(from + at) as string) : character))
      .join('');
    if (!isStateCode(theirs)) continue;
    for (const k of doubtful) taken.push({ line, position: k, character: second.get(k) as string });
  }
  return taken;
}

/** A letter as the second reader reads it: a digit it reads where a code's letter stands says nothing of which. */
const LETTER = /^[A-Z]$/;

/**
 * The positions of line `line` that hold a code no check digit covers ({@link inUncheckedCode}: the issuing
 * state, the nationality, the sex) and that the classifier reads at
 * {@link MIN_NAME_CONFIDENCE} or more but short of {@link MIN_NAME_CONFIDENCE_OVER_SECOND_READ}: the second
 * reader is asked there, and a letter it reads otherwise makes the position doubtful
 * ({@link uncheckedLettersContested}). Below {@link MIN_NAME_CONFIDENCE} the position is doubtful already.
 *
 * Why: a real Dutch passport's bold `N` was read `M` at 0.98 in its nationality (`MLD`), where the same
 * slip in the issuing state was caught by the second reader on the names line. `MLD` is no state's code,
 * so the parser refused it; the same slip elsewhere (`USA` read `UGA`, `CHE` read `CHL`) makes another
 * state's code, which nothing else would catch.
 *
 * @example
 * uncheckedCodesShortOfCertain('TD3', 1, 'XA00000148MLD7110195F…', shares) // [10] when shares[10] is 0.98
 */
export function uncheckedCodesShortOfCertain(
  format: MrzFormat,
  line: number,
  text: string,
  shares: readonly number[],
): number[] {
  return [...text]
    .map((character, k) => ({ character, k, share: shares[k] ?? 0 }))
    .filter(
      ({ character, k, share }) =>
        inUncheckedCode(format, line, k) &&
        character !== '<' &&
        share >= MIN_NAME_CONFIDENCE &&
        share < MIN_NAME_CONFIDENCE_OVER_SECOND_READ,
    )
    .map(({ k }) => k);
}

/**
 * The substitutions the second reader makes in this zone's names where the classifier is all but certain
 * ({@link MIN_NAME_CONFIDENCE_OVER_SECOND_READ}) of the letter printed, as `read>misread` (`H>M`). The
 * second reader's disagreement is no evidence where it repeats one of them on another cell of the same
 * print: there the letter stands on the classifier's share against {@link MIN_NAME_CONFIDENCE}, as it
 * would had the second reader not been asked.
 *
 * Why: one printer prints one `H`, and Tesseract's English model reads it one way. On a real Dutch card it
 * read both `H`s of `HENRIKE` and `SOPHI` as `M`; the classifier read them at 0.999 and 0.98, and the
 * second was left for the person to confirm on Tesseract's word alone.
 *
 * @example
 * secondReaderSlips('TD1', 2, 'HENRIKE<SOPHI', shares, new Map([[0, 'M'], [12, 'M']])) // Set { 'H>M' } when shares[0] ≥ 0.995
 */
export function secondReaderSlips(
  format: MrzFormat,
  line: number,
  text: string,
  shares: readonly number[],
  other: ReadonlyMap<number, string>,
): ReadonlySet<string> {
  const slips = new Set<string>();
  for (const [k, character] of other) {
    if (!inNames(format, line, k) || character === text[k] || text[k] === '<') continue;
    if ((shares[k] ?? 0) >= MIN_NAME_CONFIDENCE_OVER_SECOND_READ) slips.add(`${text[k]}>${character}`);
  }
  return slips;
}

/**
 * Below {@link SMALLEST_TRAINED_CAPITAL}: the round glyphs (`0`, `O`, `D`, `Q`) of line `line` where a
 * letter or a digit may stand, not yet doubtful, that could be slips cancelling under the check digits
 * once the second reader contests any of them. A glyph is contested when the classifier reads a round
 * letter there and the second reader the digit `0`; it is loose when contested or read short of
 * {@link MIN_ROUND_CONFIDENCE}. When one is contested, two or more are loose and slips there could cancel
 * (mrz-round-slips.ts), all the loose ones are doubtful; otherwise none.
 *
 * Why: at 7 px capitals the classifier's share of a round glyph is no measure of it (a `0` read `O` at
 * 0.996). On a generated seed benched after the small-print classifier was fixed (seed 9 at 300 px), the
 * number `101042070` was read `1O1042O70`, both `O`s surely: at weights 3 and 7 the two slips add 240, so
 * its check digit and the composite passed and the zone was presented as read, wrong. Tesseract read both
 * `0`. Only that direction counts: Tesseract's English model reads OCR-B's `0` as a letter of its own
 * accord (a real Swiss card's `S0002068`, capitals of 7.7 px, read `SODD…` by it and rightly by the
 * classifier at 0.98 and more), so its letter against the classifier's `0` says nothing, while its `0`
 * against the classifier's letter goes against its own bias.
 *
 * @example
 * roundGlyphsContestedInSmallPrint('TD3', 1, '1O1042O703GBR…', shares, [], new Map([[1, '0'], [6, '0']]))
 * // [1, 6]
 */
export function roundGlyphsContestedInSmallPrint(
  format: MrzFormat,
  line: number,
  text: string,
  shares: readonly number[],
  doubtful: readonly number[],
  other: ReadonlyMap<number, string>,
): number[] {
  const layout = LAYOUTS[format][line] ?? '';
  const round = [...text]
    .map((character, k) => ({ character, k }))
    .filter(({ character, k }) => layout[k] === 'X' && ROUND.has(character) && !doubtful.includes(k));
  const contested = round.filter(({ character, k }) => zeroAgainstRoundLetter('X', character, other.get(k)));
  if (contested.length === 0) return [];
  const loose = round
    .filter(({ k }) => (shares[k] as number) < MIN_ROUND_CONFIDENCE || contested.some((c) => c.k === k))
    .map(({ k }) => k);
  return loose.length >= 2 && roundSlipsCouldCancel(format, line, text, loose) ? loose : [];
}

/**
 * Where a letter or a digit may stand (`layout` `X`), the classifier read a round letter (`O`, `D`, `Q`)
 * and the second reader the digit `0`: against Tesseract's own bias, which reads OCR-B's `0` as a letter
 * (roundGlyphsContestedInSmallPrint). In small print such a cell is contested: the zone's print may read
 * it again, but no agreement of the print with the classifier settles it. On a fresh seed at 300 px the
 * number `00110021` was read `OO110021`: the second `O` at a share of 0.50, Tesseract reading `0`, and the
 * print, finding the cell nearer the names' `O`s, settled it; with the first, sure `O` the two slips
 * cancelled under the digits and the zone was presented as read.
 */
function zeroAgainstRoundLetter(
  layout: string | undefined,
  read: string | undefined,
  second: string | undefined,
) {
  return layout === 'X' && read !== undefined && ROUND_LETTERS.has(read) && second === '0';
}

/**
 * The round letters (`O`, `D`, `Q`) of the names in line `line` that the classifier reads short of
 * {@link MIN_SMALL_ROUND_NAME_CONFIDENCE}: doubtful on a zone below {@link SMALLEST_TRAINED_CAPITAL}, so
 * the person confirms the names.
 *
 * @example
 * roundNameLettersShortOfSure('TD3', 0, 'P<SWEWDJCIK', [1, 1, 1, 1, 1, 1, 0.994, 1, 1, 1, 1]) // [6]
 */
export function roundNameLettersShortOfSure(
  format: MrzFormat,
  line: number,
  text: string,
  shares: readonly number[],
): number[] {
  return [...text]
    .map((character, k) => ({ character, k }))
    .filter(
      ({ character, k }) =>
        inNames(format, line, k) &&
        ROUND_LETTERS.has(character) &&
        (shares[k] ?? 0) < MIN_SMALL_ROUND_NAME_CONFIDENCE,
    )
    .map(({ k }) => k);
}

/**
 * The letters of the names (and only the names) that the classifier reads at
 * {@link MIN_SECONDED_NAME_CONFIDENCE} or more, short of {@link MIN_NAME_CONFIDENCE}, and the second reader
 * reads the same: two independent readers agree, as outside the names, where the check digits back them.
 *
 * @example
 * secondedNameLetters('TD3', 0, 'P<BELLOPEZ', [1, 1, 1, 1, 1, 1, 0.88, 1, 1, 1], new Map([[6, 'O']])) // [6]
 */
export function secondedNameLetters(
  format: MrzFormat,
  line: number,
  text: string,
  shares: readonly number[],
  other: ReadonlyMap<number, string>,
): number[] {
  return [...other]
    .filter(
      ([k, character]) =>
        inNames(format, line, k) &&
        character === text[k] &&
        character !== '<' &&
        (shares[k] ?? 0) >= MIN_SECONDED_NAME_CONFIDENCE &&
        (shares[k] ?? 0) < MIN_NAME_CONFIDENCE,
    )
    .map(([k]) => k)
    .sort((a, b) => a - b);
}

/**
 * The names line as offered to the person to confirm: where the classifier is short of
 * {@link MIN_NAME_CONFIDENCE} on a letter of the names and the second reader reads another letter there,
 * the second reader's letter is offered. The position stays doubtful either way (the person confirms it);
 * this only chooses which of the two readings the person sees first.
 *
 * Measured before it was set, on the generated half A and the main real specimens: at such positions
 * Tesseract's letter was the printed one 5 times, the classifier's once (a French passport's
 * `CHRISTOPHE` read `CHRTSTOPHE`, the `I` at 0.83).
 *
 * @example
 * namesOfferedWithSecondRead('TD3', 0, 'P<FRAULYSSE<<CHRTSTOPHE', shares, new Map([[16, 'I']])) // 'P<FRAULYSSE<<CHRISTOPHE'
 */
export function namesOfferedWithSecondRead(
  format: MrzFormat,
  line: number,
  text: string,
  shares: readonly number[],
  other: ReadonlyMap<number, string>,
): string {
  let offered = text;
  for (const [k, character] of other) {
    if (!inNames(format, line, k) || character === text[k] || text[k] === '<') continue;
    if ((shares[k] ?? 0) >= MIN_NAME_CONFIDENCE) continue;
    offered = offered.slice(0, k) + character + offered.slice(k + 1);
  }
  return offered;
}

/**
 * The letters of the names in line `line` that stand after the names' padding has begun: ICAO 9303 (part
 * 3) separates the primary and secondary identifiers by `<<` and the components of each by one `<`, and
 * fills the rest of the field with `<`, so no letter can follow three fillers in a row there. Such a
 * letter is a misread filler (a real US passport's chevron under a glare spot was read `G` at 0.9 and
 * more, and Tesseract, given a lone letter between erased fillers, read nothing there): doubtful, so the
 * person confirms the names, never presented as read.
 *
 * @example
 * lettersAfterNamesPadding('TD3', 0, 'P<USATRAVELER<<MR<<<<<G<<') // [22]
 */
export function lettersAfterNamesPadding(format: MrzFormat, line: number, text: string): number[] {
  const stray: number[] = [];
  let fillersInARow = 0;
  let padding = false;
  for (let k = 0; k < text.length; k++) {
    if (!inNames(format, line, k)) continue;
    if (text[k] === '<') {
      fillersInARow++;
      if (fillersInARow >= 3) padding = true;
    } else {
      fillersInARow = 0;
      if (padding) stray.push(k);
    }
  }
  return stray;
}

/** The allowed characters other than `best` to which the classifier gave at least {@link RIVAL_SHARE}. */
function rivalsOf(probabilities: Float32Array, allowed: readonly number[], best: number): string[] {
  let total = 0;
  for (const index of allowed) total += probabilities[index] as number;
  return allowed
    .filter((index) => index !== best && (probabilities[index] as number) >= RIVAL_SHARE * total)
    .map((index) => MRZ_ALPHABET[index] as string);
}

/**
 * Settles doubtful characters by the zone's own print (mrz-zone-print.ts): the references are the cells
 * read at {@link MIN_ROUND_CONFIDENCE} or more that the second reader did not contest; a doubtful cell the
 * classifier leans to (at least {@link MIN_AGREED_SHARE}) counts when it is clearly nearer the reference
 * of the character read than those of its rivals. In the names, which no check digit covers, the second
 * reader must also have read the same there. Outside the names a round glyph is first read as the print
 * says ({@link printReading}), which may change its character in `lines`. `lines` and `uncertain` are
 * changed in place.
 */
function settleByZonePrint(
  format: MrzFormat,
  lines: string[],
  cellReads: readonly (readonly CellRead[])[],
  uncertain: number[][],
) {
  const sure = lines.flatMap((text, index) =>
    [...text].flatMap((character, k) => {
      const cell = cellReads[index]?.[k];
      return cell && isPrintReference(cell) ? [{ character, patch: cell.patch }] : [];
    }),
  );
  const references = zoneReferences(sure);
  for (const [index, doubtful] of uncertain.entries()) {
    let text = lines[index] as string;
    // Outside the names, where check digits still judge the line, the zone's print reads a round glyph
    // the classifier gave a rival: a `0` the classifier is sure is a `D` is a `0` when it is as near the
    // zone's own `0`s as they are to one another and no other round glyph of the zone is as near.
    const reread: number[] = [];
    const decisive: number[] = [];
    for (const [k, cell] of (cellReads[index] ?? []).entries()) {
      const read = text[k] as string;
      if (inNames(format, index, k) || !ROUND.has(read)) continue;
      const rivals = cell.rivals.filter((rival) => ROUND.has(rival));
      if (rivals.length === 0) continue;
      const byPrint = printReading(cell.patch, [read, ...rivals], references);
      if (byPrint === null) continue;
      if (byPrint !== read) text = text.slice(0, k) + byPrint + text.slice(k + 1);
      if (byPrint !== read || doubtful.includes(k)) reread.push(k);
      if (byPrint !== read && printIsDecisive(cell.patch, byPrint, [read, ...rivals], references))
        decisive.push(k);
    }
    // Two or more glyphs the print read otherwise than the classifier are two readings against one: left
    // uncertain when slips there could cancel under the check digits, as loose round glyphs are above. A
    // decisive print reading (printIsDecisive) is no such slip: only the others could cancel.
    const overruled = reread.filter((k) => text[k] !== lines[index]?.[k] && !decisive.includes(k));
    if (overruled.length >= 2 && roundSlipsCouldCancel(format, index, text, overruled)) {
      for (const k of overruled) {
        reread.splice(reread.indexOf(k), 1);
        if (!doubtful.includes(k)) doubtful.push(k);
      }
      doubtful.sort((a, b) => a - b);
    }
    lines[index] = text;
    const settled = doubtful.filter((k) => {
      if (reread.includes(k)) return true;
      const cell = cellReads[index]?.[k];
      if (!cell || cell.contested || cell.share < MIN_AGREED_SHARE) return false;
      if (inNames(format, index, k) && !cell.seconded) return false;
      return printAgrees(cell.patch, text[k] as string, cell.rivals, references);
    });
    if (DEBUG && (settled.length > 0 || reread.length > 0))
      process.stderr.write(
        `settled by the zone's print: ${index}:${settled} read by it: ${reread.map((k) => `${k}:${text[k]}@${cellReads[index]?.[k]?.share.toFixed(3)}`)}\n`,
      );
    uncertain[index] = doubtful.filter((k) => !settled.includes(k));
  }
}
