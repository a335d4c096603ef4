import type { MrzFormat } from '../../../domain/mrz.ts';
import { type InkComponent, type InkMap, sizeOf } from './ink-components.ts';
import { polyfit } from './least-squares.ts';
import type { TextLine } from './text-lines.ts';

/** Characters per line and lines per zone of the ICAO 9303 formats. */
export const MRZ_SHAPES: Readonly<Record<MrzFormat, { length: number; lines: number }>> = {
  TD1: { length: 30, lines: 3 },
  TD2: { length: 36, lines: 2 },
  TD3: { length: 44, lines: 2 },
};

/** One character position of a zone line. */
export interface MrzCell {
  /** The filler `<`, recognised by its shape; otherwise the OCR says what it is. */
  filler: boolean;
  /** Some ink falls in this cell (every position of a real zone prints a character). */
  inked: boolean;
}

/** A zone line on the character lattice OCR-B's fixed pitch gives it. */
export interface MrzLine {
  line: TextLine;
  /**
   * Centre x of character k: `firstCenter + pitch·k + curve·k²` (px); `curve` is 0 on a line seen
   * square-on, and takes up the pitch shrinking along a line seen in perspective.
   */
  firstCenter: number;
  pitch: number;
  curve: number;
  cells: MrzCell[];
  /** The line's characters fit the format's count exactly (else the OCR's own reading is used). */
  onLattice: boolean;
}

export interface MrzZone {
  format: MrzFormat;
  lines: MrzLine[];
  /** Bounding box of the zone, px. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** The zone reads upside down (its fillers point right): turn the image 180° and look again. */
  upsideDown: boolean;
  /** The filler glyphs, to be erased before OCR. */
  fillers: InkComponent[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] as number);
}

/** Rows (top to bottom) of a component's own pixels in columns [from, to], 1 where it has ink. */
function inkRows(component: InkComponent, map: InkMap, from: number, to: number): number[] {
  const rows: number[] = [];
  for (let y = component.y0; y <= component.y1; y++) {
    let any = 0;
    for (let x = from; x <= to && any === 0; x++) if (map.labels[y * map.width + x] === component.id) any = 1;
    rows.push(any);
  }
  return rows;
}

function share(rows: readonly number[], from: number, to: number): number {
  const start = Math.floor(from * rows.length);
  const end = Math.max(start + 1, Math.ceil(to * rows.length));
  let sum = 0;
  for (let i = start; i < end; i++) sum += rows[i] ?? 0;
  return sum / (end - start);
}

/**
 * Which way a glyph points if it is the MRZ filler chevron: `<` has its tip alone at mid-height on the
 * left and its two arms at the top and bottom on the right, a shape no letter or digit of OCR-B has
 * (K and X have ink at the top-left, V none at mid-left). `>` is the same upside down. A run of
 * touching chevrons has the same outline. Tesseract's English model reads long filler runs as K, L
 * and C, which is why fillers are recognised here by shape instead.
 *
 * @example
 * chevronDirection(glyph, ink) // '<'
 */
export function chevronDirection(component: InkComponent, map: InkMap): '<' | '>' | null {
  const { width, height } = sizeOf(component);
  if (height < 6 || width < 4) return null;
  const band = Math.max(1, Math.round(Math.min(width, height) * 0.2));
  const left = inkRows(component, map, component.x0, component.x0 + band - 1);
  const right = inkRows(component, map, component.x1 - band + 1, component.x1);
  const tip = (rows: number[]) =>
    share(rows, 0, 0.25) <= 0.1 && share(rows, 0.75, 1) <= 0.1 && share(rows, 0.35, 0.65) > 0.3;
  const arms = (rows: number[]) =>
    share(rows, 0, 0.2) > 0.3 && share(rows, 0.8, 1) > 0.3 && share(rows, 0.4, 0.6) <= 0.1;
  if (tip(left) && arms(right)) return '<';
  if (arms(left) && tip(right)) return '>';
  return null;
}

export interface Lattice {
  /** Centre x of character k: `firstCenter + pitch·k + curve·k²`, px. */
  firstCenter: number;
  pitch: number;
  curve: number;
  /** Characters the line spans. */
  count: number;
  charWidth: number;
}

/** The lattice index whose centre is nearest to `x` (the quadratic inverted by two fixed-point steps). */
export function latticeIndex(
  lattice: { firstCenter: number; pitch: number; curve: number },
  x: number,
): number {
  return Math.round(latticePosition(lattice, x));
}

/** Where on the lattice (`firstCenter + pitch·k + curve·k²`) the point `x` falls, in cells, unrounded. */
export function latticePosition(
  lattice: { firstCenter: number; pitch: number; curve: number },
  x: number,
): number {
  let k = (x - lattice.firstCenter) / lattice.pitch;
  for (let i = 0; i < 2; i++) k = (x - lattice.firstCenter) / (lattice.pitch + lattice.curve * k);
  return k;
}

/** Least-squares fit of y = c0 + c1·x (+ c2·x²). */
function fit(
  xs: readonly number[],
  ys: readonly number[],
  quadratic: boolean,
): [number, number, number] | null {
  const c = polyfit(xs, ys, quadratic ? 2 : 1);
  return c ? [c[0] as number, c[1] as number, quadratic ? (c[2] as number) : 0] : null;
}

/**
 * A glyph starting less than this share of the pitch after the last glyph that starts a cell is a piece
 * of that character, not a character of its own: light print or a small photo breaks an `N` or an `M` in
 * two after binarisation. Counted as a cell, it shifts every index after it by one and the lattice fails
 * (a real 275 px Utopia page's names line: 45 glyphs for 44 characters, its `N` in two pieces 7 px wide).
 * A character's own step is never that short: after the narrowest glyph (`I`, `1`, whose centre is
 * estimated a third of a pitch right of the cell's) the next comes two thirds of a pitch on.
 */
const SPLIT_GLYPH_STEP = 0.55;
/**
 * Such a piece is narrower than this share of the line's character width (the Utopia `N`'s were 7 px of
 * 15). A blob as wide as a character that close is something else, left to the count as before: motion
 * blur printing a glyph's ghost 2–3 px beside it (generated half A), which the lattice from the line's
 * ends then places (latticeFromEnds in read-mrz.ts).
 */
const SPLIT_PIECE_WIDTH = 0.75;

function isPiece(glyph: InkComponent | undefined, charWidth: number): boolean {
  return glyph !== undefined && sizeOf(glyph).width < SPLIT_PIECE_WIDTH * charWidth;
}

/**
 * A monospaced line: characters on a regular lattice with no gaps (every MRZ position prints). Each
 * glyph's left-cell centre is given a lattice index from its step to the previous one, measured in the
 * local pitch (the median of the last single steps: in perspective the pitch changes along the line),
 * then the centres are fitted by least squares, as a quadratic in the index on a line long enough: a
 * median step rounded to whole pixels would drift a cell along 44, a straight lattice by as much on a
 * line seen at 30°.
 *
 * @example
 * latticeOf(namesLine)?.count // 44: a TD3 line of 45 glyphs, one `N` broken in two
 */
export function latticeOf(line: TextLine): Lattice | null {
  const glyphs = line.glyphs;
  if (glyphs.length < 8) return null;
  const narrow = glyphs.filter((g) => sizeOf(g).width <= line.height * 1.3);
  const charWidth = median(narrow.map((g) => sizeOf(g).width));
  const centers = glyphs.map((g) => g.x0 + charWidth / 2);
  const steps: number[] = [];
  for (let i = 1; i < centers.length; i++) steps.push((centers[i] as number) - (centers[i - 1] as number));
  const roughPitch = median(steps);
  if (!(roughPitch >= line.height * 0.5 && roughPitch <= line.height * 1.5)) return null;
  // The glyphs that start a cell, and each one's lattice index. A narrow glyph whose step from the last
  // such one is under SPLIT_GLYPH_STEP of the pitch starts no cell: it is a piece of that character.
  const kept = [0];
  const indices = [0];
  const singles: number[] = [];
  for (let i = 1; i < glyphs.length; i++) {
    const step = (centers[i] as number) - (centers[kept[kept.length - 1] as number] as number);
    const local = singles.length >= 3 ? median(singles.slice(-5)) : roughPitch;
    const piece = isPiece(glyphs[i], charWidth);
    if (step < SPLIT_GLYPH_STEP * local && piece) continue;
    const last = kept.length - 1;
    if (step < SPLIT_GLYPH_STEP * local && isPiece(glyphs[kept[last] as number], charWidth)) {
      // The glyph that took the cell was a piece of this character, just left of it (a speck of ink
      // beside an `N` of a 300 px zone, 4 px of its 13): the character takes its cell.
      kept[last] = i;
      continue;
    }
    const cells = Math.max(1, Math.round(step / local));
    if (cells === 1) singles.push(step);
    kept.push(i);
    indices.push((indices[indices.length - 1] as number) + cells);
  }
  const keptCenters = kept.map((i) => centers[i] as number);
  const n = keptCenters.length;
  const quadratic = n >= 12;
  const coefficients = fit(indices, keptCenters, quadratic) ?? fit(indices, keptCenters, false);
  if (!coefficients) return null;
  const [firstCenter, pitch, curve] = coefficients;
  const pitchAt = (k: number) => pitch + 2 * curve * k;
  const lastIndex = indices[n - 1] as number;
  if (!(pitch > 0) || pitchAt(lastIndex) <= 0.5 * pitch || pitchAt(lastIndex) >= 2 * pitch) return null;
  // Regular: almost every glyph sits on the lattice (a proportional font drifts off it within a word).
  const onGrid = keptCenters.filter((x, i) => {
    const k = indices[i] as number;
    return Math.abs(x - firstCenter - pitch * k - curve * k * k) <= 0.3 * pitchAt(k);
  });
  if (onGrid.length < n * 0.8) return null;
  const last = glyphs[kept[n - 1] as number] as InkComponent;
  const spanned = Math.max(0, Math.round((sizeOf(last).width - charWidth) / pitchAt(lastIndex)));
  return { firstCenter, pitch, curve, count: lastIndex + spanned + 1, charWidth };
}

function cellsOf(
  line: TextLine,
  lattice: Lattice,
  length: number,
  map: InkMap,
  fillers: InkComponent[],
): MrzLine {
  const { firstCenter, pitch, curve, charWidth } = lattice;
  const cells: MrzCell[] = Array.from({ length }, () => ({ filler: false, inked: false }));
  for (const glyph of line.glyphs) {
    const from = latticeIndex(lattice, glyph.x0 + charWidth / 2);
    const to = Math.max(from, latticeIndex(lattice, glyph.x1 - charWidth / 2));
    const filler = chevronDirection(glyph, map) === '<';
    if (filler) fillers.push(glyph);
    for (let k = Math.max(0, from); k <= Math.min(length - 1, to); k++) {
      const cell = cells[k] as MrzCell;
      cell.inked = true;
      cell.filler ||= filler;
    }
  }
  return { line, firstCenter, pitch, curve, cells, onLattice: lattice.count === length };
}

interface LatticeLine {
  line: TextLine;
  lattice: Lattice;
}

/**
 * Two lines of one zone, but for their left ends: the same pitch and height, one line apart. The spacing
 * is measured against the taller of the two: a line mostly of fillers (a short name and 30 chevrons)
 * measures the chevrons' height, a fifth under the capitals' (a real Russian page, spaced 3.85 of its
 * names line and 3.3 of its number line).
 */
function sameZone(above: LatticeLine, below: LatticeLine): boolean {
  const spacing = below.line.centerY - above.line.centerY;
  const capital = Math.max(above.line.height, below.line.height);
  return (
    Math.abs(below.lattice.pitch / above.lattice.pitch - 1) <= 0.15 &&
    Math.abs(below.line.height / above.line.height - 1) <= 0.3 &&
    spacing >= 1.1 * above.line.height &&
    spacing <= 3.8 * capital
  );
}

/** The zone's lines start in the same column (ICAO 9303 prints every line from the same margin). */
function aligned(above: LatticeLine, below: LatticeLine): boolean {
  return Math.abs(below.line.x0 - above.line.x0) <= 1.5 * above.lattice.pitch;
}

/**
 * How far, in pitches, a line's first glyph must stand from its second to be ink beside the line rather
 * than its first character. A filler lost at the second cell (melted into a run) leaves two pitches too,
 * so this alone proves nothing: {@link findMrzZone} drops such a glyph only when that aligns the line.
 */
const LONE_LEAD_PITCHES = 1.6;

/** The line without its first glyph when that glyph stands alone, laid on its lattice again. */
function withoutLoneLead({ line, lattice }: LatticeLine): LatticeLine | null {
  const [first, second] = line.glyphs;
  if (!first || !second || second.x0 - first.x0 < LONE_LEAD_PITCHES * lattice.pitch) return null;
  const glyphs = line.glyphs.slice(1);
  const trimmed: TextLine = { ...line, glyphs, x0: Math.min(...glyphs.map((g) => g.x0)) };
  const relaid = latticeOf(trimmed);
  return relaid ? { line: trimmed, lattice: relaid } : null;
}

/**
 * Finds the machine-readable zone among a document's text lines: 2 or 3 consecutive monospaced lines of
 * 30, 36 or 44 characters, the same height and pitch, left-aligned, one line height apart; the lowest
 * such group (the zone is at the bottom of a data page or card back). Each line is laid on its character
 * lattice and the filler chevrons are marked by shape.
 *
 * @example
 * const zone = findMrzZone(groupTextLines(glyphs), ink);
 * zone?.format // 'TD3'
 */
export function findMrzZone(lines: readonly TextLine[], map: InkMap): MrzZone | null {
  const candidates = lines
    .map((line) => ({ line, lattice: latticeOf(line) }))
    .filter((entry): entry is LatticeLine => entry.lattice !== null)
    .filter(({ lattice }) => lattice.count >= 26 && lattice.count <= 48);
  const chains: LatticeLine[][] = [];
  for (const candidate of candidates) {
    let joined = false;
    for (const chain of chains) {
      const last = chain[chain.length - 1] as LatticeLine;
      if (!sameZone(last, candidate)) continue;
      if (aligned(last, candidate)) chain.push(candidate);
      else {
        // Ink beside the zone merged into one line as its first glyph (a card's vertical print, a
        // stamp's edge): the zone's lines are left-aligned, so the line that starts too far left loses
        // a lone first glyph when that aligns it with the other.
        const trimmed = withoutLoneLead(candidate);
        const lastTrimmed = withoutLoneLead(last);
        if (trimmed && aligned(last, trimmed)) chain.push(trimmed);
        else if (lastTrimmed && aligned(lastTrimmed, candidate)) chain.splice(-1, 1, lastTrimmed, candidate);
        else continue;
      }
      joined = true;
      break;
    }
    if (!joined) chains.push([candidate]);
  }
  let best: MrzZone | null = null;
  for (const chain of chains) {
    const count = median(chain.map((entry) => entry.lattice.count));
    const format = (Object.keys(MRZ_SHAPES) as MrzFormat[]).find(
      (name) => Math.abs(MRZ_SHAPES[name].length - count) <= 3 && chain.length >= MRZ_SHAPES[name].lines,
    );
    if (!format) continue;
    const shape = MRZ_SHAPES[format];
    const chosen = chain.slice(-shape.lines);
    let pointingLeft = 0;
    let pointingRight = 0;
    for (const { line } of chosen) {
      for (const glyph of line.glyphs) {
        const direction = chevronDirection(glyph, map);
        if (direction === '<') pointingLeft++;
        if (direction === '>') pointingRight++;
      }
    }
    const fillers: InkComponent[] = [];
    const zoneLines = chosen.map(({ line, lattice }) => cellsOf(line, lattice, shape.length, map, fillers));
    const zone: MrzZone = {
      format,
      lines: zoneLines,
      x0: Math.min(...chosen.map((c) => c.line.x0)),
      y0: Math.min(...chosen.map((c) => c.line.y0)),
      x1: Math.max(...chosen.map((c) => c.line.x1)),
      y1: Math.max(...chosen.map((c) => c.line.y1)),
      upsideDown: pointingRight > pointingLeft,
      fillers,
    };
    if (!best || zone.y1 > best.y1) best = zone;
  }
  return best;
}
