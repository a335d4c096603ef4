import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import { sizeOf } from './ink-components.ts';
import { polyfit } from './least-squares.ts';
import { latticeIndex, type MrzLine } from './mrz-zone.ts';

/** Size of the patch every character cell is resampled to, whatever its size in the photo. */
export const CELL_WIDTH = 16;
export const CELL_HEIGHT = 24;
/** The patch spans this many pitches across and this many cap heights up and down (a margin all round). */
const CELL_SPAN_X = 1.05;
const CELL_SPAN_Y = 1.45;

/**
 * Where one line of the zone lies in the photo, as fitted from its own glyphs: the centre of character
 * `k` is at x = a + b·k + c·k² (a quadratic, so the pitch may shrink along a line seen in perspective),
 * y follows the glyph centres as a line in x (or, where they clearly bow, as a quadratic in k), and the
 * capital height changes linearly along the line. Together they give each cell its own centre, direction
 * and size: the zone rectified by its own geometry, cell by cell, with no outline of the document needed.
 */
export interface LineGeometry {
  x: [number, number, number];
  /** y = y[0] + y[1]·x. */
  y: [number, number];
  /**
   * A line that bows (a page curving away from a flat scan, a phone lens): the glyph centres' y as a
   * quadratic in the cell index, `bow[0] + bow[1]·k + bow[2]·k²`, in place of `y`'s straight line.
   */
  bow?: [number, number, number];
  /** Capital height = h[0] + h[1]·k. */
  h: [number, number];
  /**
   * How far the glyphs' verticals lean along the line per unit of height (a page seen at an angle shears
   * its print: `withShear`); 0 when they stand square to the line.
   */
  shear?: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] as number);
}

/**
 * Fits a zone line's geometry from the glyphs that occupy exactly one cell of its lattice. Runs of
 * touching fillers and merged characters are left out; capitals' heights come from the glyphs of about
 * the line's median height (a chevron is shorter than a capital).
 *
 * @example
 * lineGeometry(zone.lines[0]) // { x: [102.4, 18.1, 0.01], y: [640, 0.002], h: [24.5, -0.02] }
 */
export function lineGeometry(line: MrzLine): LineGeometry {
  const { pitch } = line;
  const ks: number[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  const hk: number[] = [];
  const hs: number[] = [];
  const tallest = median(line.line.glyphs.map((glyph) => sizeOf(glyph).height));
  for (const glyph of line.line.glyphs) {
    const { width, height } = sizeOf(glyph);
    if (width > 1.3 * pitch) continue;
    const cx = (glyph.x0 + glyph.x1) / 2;
    const k = latticeIndex(line, cx);
    if (k < 0 || k >= line.cells.length) continue;
    ks.push(k);
    xs.push(cx);
    ys.push((glyph.y0 + glyph.y1) / 2);
    // Capitals and digits give the height; a filler chevron is shorter than they are.
    if (height >= 0.85 * tallest) {
      hk.push(k);
      hs.push(height);
    }
  }
  const linearX: [number, number, number] = [line.firstCenter, pitch, line.curve];
  // A quadratic needs glyphs spread along the line; with few, the straight lattice is safer.
  const spread = ks.length > 0 ? Math.max(...ks) - Math.min(...ks) : 0;
  const quadratic = ks.length >= 10 && spread >= line.cells.length * 0.5 ? polyfit(ks, xs, 2) : null;
  const x = (quadratic as [number, number, number] | null) ?? linearX;
  // A fitted pitch must stay close to the lattice's; a wild curve is a misfit, not perspective.
  const pitchAt = (k: number) => x[1] + 2 * x[2] * k;
  const sane =
    pitchAt(0) > 0.7 * pitch && pitchAt(line.cells.length - 1) < 1.4 * pitch && pitchAt(0) < 1.4 * pitch;
  const y = (polyfit(xs, ys, 1) as [number, number] | null) ?? [line.line.centerY, 0];
  const flatHeight = median(hs.length > 0 ? hs : [line.line.height]);
  const bow = spread >= line.cells.length * 0.5 ? bowOf(ks, xs, ys, y, flatHeight) : null;
  let h = (hs.length >= 8 ? (polyfit(hk, hs, 1) as [number, number] | null) : null) ?? [flatHeight, 0];
  const heightAt = (k: number) => h[0] + h[1] * k;
  if (heightAt(0) < 0.7 * flatHeight || heightAt(line.cells.length - 1) < 0.7 * flatHeight)
    h = [flatHeight, 0];
  return { x: sane ? x : linearX, y, h, ...(bow ? { bow } : {}) };
}

/**
 * A line bows only when its glyph centres say so clearly: the quadratic through them must stray from the
 * straight line by at least this share of a capital somewhere along the line…
 */
const MIN_BOW = 0.1;
/** …and no more than this (more is a misfit: a glyph merged with print above or below). */
const MAX_BOW = 0.6;
/** The quadratic must leave at most this share of the straight line's squared residuals. */
const MAX_BOW_RESIDUAL_SHARE = 0.5;

/**
 * The quadratic in the cell index through a line's glyph centres (`ks`, `xs`, `ys`), or null when the
 * straight fit `straight` (y in x) is as good: a photographed page that curves bows its zone lines, and
 * a straight fit through a bowed line centres the cells at its ends off their glyphs by a quarter of a
 * capital and more (a real Australian passport: 6 px on 23 px capitals, its `P` and `0` read at 0.48).
 */
function bowOf(
  ks: readonly number[],
  xs: readonly number[],
  ys: readonly number[],
  straight: readonly [number, number],
  capital: number,
): [number, number, number] | null {
  if (ks.length < 10 || capital <= 0) return null;
  const bow = polyfit(ks, ys, 2) as [number, number, number] | null;
  if (!bow) return null;
  let straightSquares = 0;
  let bowSquares = 0;
  let largest = 0;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i] as number;
    const onStraight = straight[0] + straight[1] * (xs[i] as number);
    const onBow = bow[0] + bow[1] * k + bow[2] * k * k;
    straightSquares += ((ys[i] as number) - onStraight) ** 2;
    bowSquares += ((ys[i] as number) - onBow) ** 2;
    largest = Math.max(largest, Math.abs(onBow - onStraight));
  }
  const clear = largest >= MIN_BOW * capital && largest <= MAX_BOW * capital;
  return clear && bowSquares <= MAX_BOW_RESIDUAL_SHARE * straightSquares ? bow : null;
}

/** Shears tried by {@link withShear}: verticals leaning up to 0.6 of their height either way, then finer. */
const COARSE_SHEARS = Array.from({ length: 13 }, (_, i) => Math.round(-60 + 10 * i) / 100);
const SHEAR_STEP = 0.05;
/** How much sharper than upright the columns must be for a shear to be believed on their word alone. */
const MIN_SHEAR_GAIN = 1.015;
/**
 * How much sharper suffices when the zone's own left margin leans the same way ({@link zoneLean}): at
 * 11 px capitals a real page seen at an angle sharpens its columns by only 0.6–1.2 % at its lean (an
 * Australian specimen photographed on a desk, read `CZTZZEN` for `CITIZEN` upright), while motion blur
 * across the line can sharpen them by as much at a lean the margin does not show.
 */
const MIN_SHEAR_GAIN_WITH_MARGIN = 1.004;
/**
 * How much further than the margin the columns' sharpest lean may go for the margin to vouch for it. It
 * may lean less: on a page seen from one side the verticals lean most at the page's edge and less towards
 * its middle, where most of the zone's cells are (the Australian specimen: margin −0.27, cells −0.1 to −0.15).
 */
const MAX_MARGIN_LEAN_GAP = 0.1;
/** A margin leaning less than this vouches for no shear: it is within a pixel of upright. */
const MIN_MARGIN_LEAN = 0.05;

/**
 * The line's geometry with the lean of its glyphs' verticals taken out: a page photographed at an angle
 * shears its print, so that upright strokes lean (an `I` read as `Z`, a `1` as `T`). OCR-B's letters and
 * digits are mostly upright strokes, so the shear at which the ink's column profile over all cells is
 * sharpest (the largest sum of squared column sums) is the lean; none is applied unless it is clearly
 * sharper than upright.
 *
 * @example
 * withShear(gray, lineGeometry(zone.lines[0]), 44).shear // 0.25 on a page seen at 25°
 *
 * `marginLean`: the lean of the zone's left margin ({@link zoneLean}); a shear near it needs less gain.
 */
export function withShear(
  gray: GrayscaleImage,
  geometry: LineGeometry,
  length: number,
  marginLean = 0,
): LineGeometry {
  const width = 16;
  const height = 16;
  const cells = Array.from({ length }, (_, k) => k);
  const scoreOf = (shear: number) => {
    const sheared = { ...geometry, shear };
    let score = 0;
    for (const k of cells) {
      const patch = sampleCell(gray, sheared, k, NO_JITTER, width, height);
      // Ink only, measured from the cell's paper (its lightest tenth): the paper's tone adds nothing.
      const paper = Float32Array.from(patch).sort()[Math.floor(patch.length * 0.9)] as number;
      for (let col = 0; col < width; col++) {
        let column = 0;
        for (let row = 0; row < height; row++)
          column += Math.max(0, paper - (patch[row * width + col] as number));
        score += column * column;
      }
    }
    return score;
  };
  const upright = scoreOf(0);
  let best = 0;
  let bestScore = upright;
  const tryShear = (shear: number) => {
    const score = scoreOf(shear);
    if (score > bestScore) {
      best = shear;
      bestScore = score;
    }
  };
  // Coarse, then around the best coarse lean: the profile's peak is broad and single.
  for (const shear of COARSE_SHEARS) if (shear !== 0) tryShear(shear);
  const coarse = best;
  for (const step of [-SHEAR_STEP, SHEAR_STEP]) tryShear(coarse + step);
  const vouched =
    Math.abs(marginLean) >= MIN_MARGIN_LEAN &&
    Math.sign(best) === Math.sign(marginLean) &&
    Math.abs(best) <= Math.abs(marginLean) + MAX_MARGIN_LEAN_GAP;
  const needed = vouched ? MIN_SHEAR_GAIN_WITH_MARGIN : MIN_SHEAR_GAIN;
  return bestScore >= upright * needed ? { ...geometry, shear: best } : geometry;
}

/**
 * The lean of the zone's left margin: how far right its first character's centre moves per pixel down,
 * from the first line to the last (each line's fitted lattice, not one glyph's edge). ICAO 9303 prints
 * every line of a zone from one margin, so on a level zone a margin that leans is the page's shear.
 *
 * @example
 * zoneLean([lineGeometry(zone.lines[0]), lineGeometry(zone.lines[1])]) // -0.12: the lower line starts left
 */
export function zoneLean(geometries: readonly LineGeometry[]): number {
  const first = geometries[0];
  const last = geometries[geometries.length - 1];
  if (!first || !last || first === last) return 0;
  const yOf = (g: LineGeometry) => (g.bow ? g.bow[0] : g.y[0] + g.y[1] * g.x[0]);
  const down = yOf(last) - yOf(first);
  return down > 0 ? (last.x[0] - first.x[0]) / down : 0;
}

/** Gray level at a point, bilinear, the nearest edge pixel outside the image. */
function sample(gray: GrayscaleImage, x: number, y: number): number {
  const { pixels, width, height } = gray;
  const cx = Math.min(width - 1.001, Math.max(0, x));
  const cy = Math.min(height - 1.001, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const fx = cx - x0;
  const fy = cy - y0;
  const i = y0 * width + x0;
  const top = (pixels[i] as number) * (1 - fx) + (pixels[i + 1] as number) * fx;
  const bottom = (pixels[i + width] as number) * (1 - fx) + (pixels[i + width + 1] as number) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Optional nudge of a cell in its own units (fractions of pitch and of capital height), and a scale. */
export interface CellJitter {
  dx: number;
  dy: number;
  scale: number;
}

const NO_JITTER: CellJitter = { dx: 0, dy: 0, scale: 1 };

/**
 * Cell `k` of a line resampled to `width` × `height` gray levels along the line's own direction,
 * area-averaged when the cell is larger than the samples.
 */
function sampleCell(
  gray: GrayscaleImage,
  geometry: LineGeometry,
  k: number,
  jitter: CellJitter,
  width: number,
  height: number,
): Float32Array {
  const [a, b, c] = geometry.x;
  const pitch = b + 2 * c * k;
  const capital = geometry.h[0] + geometry.h[1] * k;
  const cx0 = a + b * k + c * k * k;
  const bow = geometry.bow;
  // Along a bowed line the slope at cell k is dy/dk over dx/dk.
  const slope = bow ? (bow[1] + 2 * bow[2] * k) / pitch : geometry.y[1];
  const norm = Math.hypot(1, slope);
  // Unit vectors along the line and across it (pointing down the image).
  const ux = 1 / norm;
  const uy = slope / norm;
  const vx = -uy;
  const vy = ux;
  const cy0 = bow ? bow[0] + bow[1] * k + bow[2] * k * k : geometry.y[0] + slope * cx0;
  const spanU = CELL_SPAN_X * pitch * jitter.scale;
  const spanV = CELL_SPAN_Y * capital * jitter.scale;
  const centerX = cx0 + ux * jitter.dx * pitch + vx * jitter.dy * capital;
  const centerY = cy0 + uy * jitter.dx * pitch + vy * jitter.dy * capital;
  const stepU = spanU / width;
  const stepV = spanV / height;
  const shear = geometry.shear ?? 0;
  const sub = Math.max(1, Math.min(4, Math.ceil(Math.max(stepU, stepV))));
  const samples = new Float32Array(width * height);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      let sum = 0;
      for (let sy = 0; sy < sub; sy++) {
        const v = (row + (sy + 0.5) / sub) * stepV - spanV / 2;
        for (let sx = 0; sx < sub; sx++) {
          const u = (col + (sx + 0.5) / sub) * stepU - spanU / 2 + shear * v;
          sum += sample(gray, centerX + ux * u + vx * v, centerY + uy * u + vy * v);
        }
      }
      samples[row * width + col] = sum / (sub * sub);
    }
  }
  return samples;
}

/**
 * Cell `k` of a line resampled to a {@link CELL_WIDTH} × {@link CELL_HEIGHT} patch along the line's own
 * direction, area-averaged when the cell is larger than the patch, contrast-stretched (2nd to 98th
 * percentile) and inverted: 1 is ink, 0 paper. A patch with no contrast at all is all zeros.
 *
 * @example
 * const patch = cellPatch(gray, lineGeometry(zone.lines[1]), 9);
 */
export function cellPatch(
  gray: GrayscaleImage,
  geometry: LineGeometry,
  k: number,
  jitter: CellJitter = NO_JITTER,
): Float32Array {
  const patch = sampleCell(gray, geometry, k, jitter, CELL_WIDTH, CELL_HEIGHT);
  const sorted = Float32Array.from(patch).sort();
  const low = sorted[Math.floor(sorted.length * 0.02)] as number;
  const high = sorted[Math.floor(sorted.length * 0.98)] as number;
  const range = high - low;
  if (range < 12) return patch.fill(0);
  for (let i = 0; i < patch.length; i++) {
    patch[i] = Math.min(1, Math.max(0, (high - (patch[i] as number)) / range));
  }
  return patch;
}

/** Size of one cell in {@link rectifiedLine}: what Tesseract's LSTM reads best (~30 px capitals). */
export const RECTIFIED_CELL_WIDTH = 28;
export const RECTIFIED_CELL_HEIGHT = 44;
/** The gray levels of ink and paper in {@link rectifiedLine} when it evens out the light. */
const RECTIFIED_INK = 20;
const RECTIFIED_PAPER = 235;
/**
 * A line is under uneven light when its palest ink (a cell's 2nd percentile) is lighter than the ink of
 * its darker cells (their lower quartile) by more than this share of the line's contrast: a glare band
 * lifts the ink under it half-way to the paper and more, where motion blur, laminate and holograms on
 * the generated half A lift it by up to 0.26, 0.15 and 0.36 (glare bands there: 0.52 and more).
 */
const UNEVEN_INK = 0.45;

function unevenLight(levels: readonly { low: number; high: number }[]): boolean {
  if (levels.length < 4) return false;
  const lows = levels.map((level) => level.low).sort((x, y) => x - y);
  const highs = levels.map((level) => level.high).sort((x, y) => x - y);
  const ink = lows[Math.floor(lows.length / 4)] as number;
  const paper = highs[Math.floor(highs.length / 2)] as number;
  return paper - ink >= 12 && ((lows[lows.length - 1] as number) - ink) / (paper - ink) > UNEVEN_INK;
}

/**
 * A whole line straightened cell by cell into one gray strip, {@link RECTIFIED_CELL_WIDTH} px per
 * character, with a margin of paper either side; the cells in `blank` (fillers) are painted paper.
 * For a second, independent reader.
 *
 * @example
 * const strip = rectifiedLine(gray, geometry, 44, fillerCells);
 */
export function rectifiedLine(
  gray: GrayscaleImage,
  geometry: LineGeometry,
  length: number,
  blank: ReadonlySet<number>,
): { data: Uint8Array; width: number; height: number; channels: 1; margin: number } {
  const margin = RECTIFIED_CELL_WIDTH;
  const width = length * RECTIFIED_CELL_WIDTH + 2 * margin;
  const height = RECTIFIED_CELL_HEIGHT + 2 * 8;
  const cells = Array.from({ length }, (_, k) =>
    sampleCell(gray, geometry, k, NO_JITTER, RECTIFIED_CELL_WIDTH, RECTIFIED_CELL_HEIGHT),
  );
  const levels = cells.map((cell) => {
    const sorted = Float32Array.from(cell).sort();
    return {
      low: sorted[Math.floor(sorted.length * 0.02)] as number,
      high: sorted[Math.floor(sorted.length * 0.98)] as number,
    };
  });
  const uneven = unevenLight(levels.filter((_, k) => !blank.has(k)));
  const all = cells.flatMap((cell) => [...cell]).sort((x, y) => x - y);
  const paper = all[Math.floor(all.length * 0.9)] ?? 255;
  const data = new Uint8Array(width * height).fill(Math.round(uneven ? RECTIFIED_PAPER : paper));
  for (const [k, cell] of cells.entries()) {
    if (blank.has(k)) continue;
    // Under uneven light (a glare band, a shadow across the line) each cell is stretched between the ink
    // and paper of its neighbourhood (it and the printed cells either side, 2nd and 98th percentiles as
    // `cellPatch`), so that every character is the same dark ink on the same paper; under even light
    // the cells are left as they are.
    let low = 0;
    let high = 255;
    if (uneven) {
      const around = [k - 1, k, k + 1].filter((j) => j >= 0 && j < length && (j === k || !blank.has(j)));
      low = Math.min(...around.map((j) => (levels[j] as { low: number }).low));
      high = Math.max(...around.map((j) => (levels[j] as { high: number }).high));
      if (high - low < 12) continue;
    }
    for (let row = 0; row < RECTIFIED_CELL_HEIGHT; row++) {
      for (let col = 0; col < RECTIFIED_CELL_WIDTH; col++) {
        const level = cell[row * RECTIFIED_CELL_WIDTH + col] as number;
        data[(row + 8) * width + margin + k * RECTIFIED_CELL_WIDTH + col] = Math.round(
          uneven
            ? RECTIFIED_INK +
                Math.min(1, Math.max(0, (level - low) / (high - low))) * (RECTIFIED_PAPER - RECTIFIED_INK)
            : level,
        );
      }
    }
  }
  return { data, width, height, channels: 1, margin };
}
