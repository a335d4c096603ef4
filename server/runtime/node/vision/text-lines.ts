import { type InkComponent, sizeOf } from './ink-components.ts';

/** Characters side by side on one baseline. */
export interface TextLine {
  /** Left to right. */
  glyphs: InkComponent[];
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Glyph height of the line's taller glyphs (upper quartile: capitals, not fillers or lower case), px. */
  height: number;
  /** Median glyph centre, px. */
  centerY: number;
}

/** How much sharper than at 0° the rows must be for a skew to be believed. */
const MIN_SKEW_GAIN = 1.15;

/** Glyphs smaller than this (px) are specks: dust, JPEG noise, the dot of an i. */
const MIN_GLYPH_HEIGHT = 7;

/**
 * Components that could be printed characters: not specks, not ruled lines or frames, not a blob a
 * sizeable part of the image tall (a photo's hair, a shadow).
 *
 * @example
 * const glyphs = glyphCandidates(ink.components, ink.height);
 */
export function glyphCandidates(components: readonly InkComponent[], imageHeight: number): InkComponent[] {
  const maxHeight = Math.max(MIN_GLYPH_HEIGHT * 2, imageHeight * 0.12);
  return components.filter((component) => {
    const { width, height } = sizeOf(component);
    if (height < MIN_GLYPH_HEIGHT || height > maxHeight) return false;
    const fill = component.area / (width * height);
    // Runs of touching characters (a blurred "<<<<<", wide chevrons that meet) stay, however long: their
    // strokes fill a fraction of their box. A rule or a frame edge, solid ink, does not.
    if (width > height * 12 && fill > 0.5) return false;
    return fill >= 0.08;
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] as number);
}

/** The line's capital height: a line of many short glyphs (fillers, lower case) is as tall as its capitals. */
function upperQuartile(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length * 0.75)] as number);
}

const centerY = (glyph: InkComponent) => (glyph.y0 + glyph.y1) / 2;
const heightOf = (glyph: InkComponent) => glyph.y1 - glyph.y0 + 1;

interface OpenLine {
  glyphs: InkComponent[];
  lastX1: number;
  centerY: number;
  height: number;
}

/**
 * Groups glyphs into lines, left to right: a glyph joins the line it continues (close after its last
 * glyph, on the same centre line, of a similar height); a wide gap (another column) starts a new line.
 * Only lines of at least `minGlyphs` are returned, top to bottom.
 *
 * @example
 * groupTextLines(glyphs).length // 12
 */
export function groupTextLines(glyphs: readonly InkComponent[], minGlyphs = 3): TextLine[] {
  const open: OpenLine[] = [];
  for (const glyph of [...glyphs].sort((a, b) => a.x0 - b.x0)) {
    const h = heightOf(glyph);
    const cy = centerY(glyph);
    let best: OpenLine | undefined;
    let bestOffset = Number.POSITIVE_INFINITY;
    for (const line of open) {
      const size = Math.max(h, line.height);
      const gap = glyph.x0 - line.lastX1;
      const offset = Math.abs(cy - line.centerY);
      if (gap > 1.5 * size || gap < -0.5 * size) continue;
      // A smaller glyph inside the line's band (a chevron or a dash between capitals) belongs to it too.
      // Not a line of one glyph, whose band is no line's yet: the page's edge beside a small zone (a thin
      // blob two and a half capitals tall) took the number line's first eight digits into its band.
      const inBand =
        line.glyphs.length >= 2 &&
        h >= 0.4 * line.height &&
        glyph.y0 >= line.centerY - 0.65 * line.height &&
        glyph.y1 <= line.centerY + 0.65 * line.height;
      if (!inBand && offset > 0.35 * size) continue;
      if (!inBand && (h > line.height * 1.6 || h < line.height / 1.6)) continue;
      if (offset < bestOffset) {
        best = line;
        bestOffset = offset;
      }
    }
    if (best) {
      best.glyphs.push(glyph);
      best.lastX1 = Math.max(best.lastX1, glyph.x1);
      // Follow the line slowly, so one tall letter does not drag it off its baseline; a run of smaller
      // glyphs (filler chevrons) must not shrink it either, or the capital after the run no longer fits.
      if (h >= best.height / 1.3) {
        best.centerY += (cy - best.centerY) / Math.min(best.glyphs.length, 4);
        best.height += (h - best.height) / Math.min(best.glyphs.length, 4);
      }
    } else {
      open.push({ glyphs: [glyph], lastX1: glyph.x1, centerY: cy, height: h });
    }
  }
  return open
    .filter((line) => line.glyphs.length >= minGlyphs)
    .map((line) => ({
      glyphs: line.glyphs,
      x0: Math.min(...line.glyphs.map((g) => g.x0)),
      x1: Math.max(...line.glyphs.map((g) => g.x1)),
      y0: Math.min(...line.glyphs.map((g) => g.y0)),
      y1: Math.max(...line.glyphs.map((g) => g.y1)),
      height: upperQuartile(line.glyphs.map(heightOf)),
      centerY: median(line.glyphs.map(centerY)),
    }))
    .sort((a, b) => a.centerY - b.centerY);
}

/**
 * Text skew by projection profile: the angle (degrees, within ±`range`) at which the glyph centres,
 * projected onto the vertical, pile up into the sharpest rows. Searched coarse then fine. Positive means
 * the text runs down to the right (clockwise); rotate by the opposite angle to straighten.
 *
 * @example
 * textSkew(glyphs, 10) // 4.2
 */
export function textSkew(glyphs: readonly InkComponent[], range: number): number {
  if (glyphs.length < 8) return 0;
  const points = glyphs.map((glyph) => ({ x: (glyph.x0 + glyph.x1) / 2, y: centerY(glyph) }));
  const bin = Math.max(2, median(glyphs.map(heightOf)) / 3);
  const score = (degrees: number) => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    const rows = new Map<number, number>();
    for (const { x, y } of points) {
      // The row a point lands on once the image is turned by -degrees.
      const row = Math.round((y * cos - x * sin) / bin);
      rows.set(row, (rows.get(row) ?? 0) + 1);
    }
    let sum = 0;
    for (const count of rows.values()) sum += count * count;
    return sum;
  };
  const search = (from: number, to: number, step: number) => {
    let best = 0;
    let bestScore = -1;
    for (let degrees = from; degrees <= to + 1e-9; degrees += step) {
      const value = score(degrees);
      // Ties go to the smaller rotation: never turn an image without a reason.
      if (value > bestScore || (value === bestScore && Math.abs(degrees) < Math.abs(best))) {
        best = degrees;
        bestScore = value;
      }
    }
    return best;
  };
  const coarse = search(-range, range, 0.5);
  const fine = search(coarse - 0.5, coarse + 0.5, 0.1);
  // Scattered blobs (a photo, a pattern) peak somewhere by chance; real lines of text peak clearly.
  if (score(fine) < score(0) * MIN_SKEW_GAIN) return 0;
  return Math.round(fine * 10) / 10;
}

/**
 * Rows of text: line segments side by side (a label and its value, two columns) count once, so the
 * number reflects how much of a page is text, not how it is laid out.
 *
 * @example
 * countTextRows(groupTextLines(glyphs)) // 16
 */
export function countTextRows(lines: readonly TextLine[]): number {
  const rows: { y0: number; y1: number }[] = [];
  for (const line of [...lines].sort((a, b) => a.centerY - b.centerY)) {
    const row = rows.find((r) => {
      const overlap = Math.min(r.y1, line.y1) - Math.max(r.y0, line.y0);
      return overlap >= 0.5 * Math.min(r.y1 - r.y0, line.y1 - line.y0);
    });
    if (row) {
      row.y0 = Math.min(row.y0, line.y0);
      row.y1 = Math.max(row.y1, line.y1);
    } else {
      rows.push({ y0: line.y0, y1: line.y1 });
    }
  }
  return rows.length;
}
