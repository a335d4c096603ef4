import type { RawImage } from './decode-upright.ts';

/** A rotated rectangle, in the pixels of the image it was found in. */
export interface DocumentOutline {
  centerX: number;
  centerY: number;
  /** Length of the side closer to horizontal. */
  width: number;
  height: number;
  /** Angle of that side, degrees in (-45, 45]; positive runs down to the right (clockwise). */
  angle: number;
}

/** The document must cover at least this share of the photo to be called found (and not fill all of it). */
const MIN_AREA_SHARE = 0.12;
const MAX_AREA_SHARE = 0.95;
/** A card or page fills its outline; a hand, a face or a cluttered desk does not. */
const MIN_RECTANGULARITY = 0.85;
/** Colour distance (RGB) from the background below which a pixel is background, at the least. */
const MIN_COLOUR_DISTANCE = 40;

type Point = { x: number; y: number };

function medianOf(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? 0;
}

/** The photo's border ring: what surrounds a document photographed on a table or held against a wall. */
function borderPixels(image: RawImage): number[] {
  const ring = Math.max(2, Math.round(Math.min(image.width, image.height) * 0.02));
  const indices: number[] = [];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (x < ring || y < ring || x >= image.width - ring || y >= image.height - ring)
        indices.push(y * image.width + x);
    }
  }
  return indices;
}

/** The largest 4-connected region of `mask`, as a mask, with its pixel count. */
function largestRegion(mask: Uint8Array, width: number): { region: Uint8Array; area: number } {
  const labels = new Int32Array(mask.length);
  const stack = new Int32Array(mask.length);
  let bestLabel = 0;
  let bestArea = 0;
  let label = 0;
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] === 0 || labels[start] !== 0) continue;
    label++;
    let area = 0;
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const p = stack[--top] as number;
      area++;
      const x = p % width;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
      for (const q of neighbours) {
        if (q < 0 || q >= mask.length || mask[q] === 0 || labels[q] !== 0) continue;
        labels[q] = label;
        stack[top++] = q;
      }
    }
    if (area > bestArea) {
      bestArea = area;
      bestLabel = label;
    }
  }
  const region = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) if (labels[i] === bestLabel && bestLabel !== 0) region[i] = 1;
  return { region, area: bestArea };
}

/**
 * Erosion (`erode`: kept where the whole (2r+1)² square is set) or dilation (set where any of it is), as
 * two separable passes of a sliding count. The square is cut at the image's edge.
 */
function morph(mask: Uint8Array, width: number, height: number, r: number, erode: boolean): Uint8Array {
  const pass = (input: Uint8Array, along: 'x' | 'y'): Uint8Array => {
    const output = new Uint8Array(input.length);
    const [lines, length] = along === 'x' ? [height, width] : [width, height];
    const at = (line: number, i: number) => (along === 'x' ? line * width + i : i * width + line);
    for (let line = 0; line < lines; line++) {
      let count = 0;
      // Sliding window [i - r, i + r], clipped to the line.
      for (let i = 0; i < Math.min(r, length); i++) count += input[at(line, i)] as number;
      for (let i = 0; i < length; i++) {
        if (i + r < length) count += input[at(line, i + r)] as number;
        if (i - r - 1 >= 0) count -= input[at(line, i - r - 1)] as number;
        const size = Math.min(length - 1, i + r) - Math.max(0, i - r) + 1;
        output[at(line, i)] = erode ? (count === size ? 1 : 0) : count > 0 ? 1 : 0;
      }
    }
    return output;
  };
  return pass(pass(mask, 'x'), 'y');
}

function cross(o: Point, a: Point, b: Point): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** Convex hull (Andrew's monotone chain), counter-clockwise. */
function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const lower: Point[] = [];
  for (const p of sorted) {
    while (
      lower.length >= 2 &&
      cross(lower[lower.length - 2] as Point, lower[lower.length - 1] as Point, p) <= 0
    )
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (const p of sorted.reverse()) {
    while (
      upper.length >= 2 &&
      cross(upper[upper.length - 2] as Point, upper[upper.length - 1] as Point, p) <= 0
    )
      upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** The minimum-area rectangle around a convex polygon: one of its sides lies on a hull edge. */
function minimumAreaRectangle(hull: Point[]): DocumentOutline | null {
  let best: (DocumentOutline & { area: number }) | null = null;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i] as Point;
    const b = hull[(i + 1) % hull.length] as Point;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length === 0) continue;
    const ux = (b.x - a.x) / length;
    const uy = (b.y - a.y) / length;
    let minU = Number.POSITIVE_INFINITY;
    let maxU = Number.NEGATIVE_INFINITY;
    let minV = Number.POSITIVE_INFINITY;
    let maxV = Number.NEGATIVE_INFINITY;
    for (const p of hull) {
      const u = p.x * ux + p.y * uy;
      const v = -p.x * uy + p.y * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (best && area >= best.area) continue;
    const cu = (minU + maxU) / 2;
    const cv = (minV + maxV) / 2;
    let angle = (Math.atan2(uy, ux) * 180) / Math.PI;
    let width = maxU - minU;
    let height = maxV - minV;
    // Name the sides by the one closer to horizontal, angle in (-45, 45].
    while (angle > 45) {
      angle -= 90;
      [width, height] = [height, width];
    }
    while (angle <= -45) {
      angle += 90;
      [width, height] = [height, width];
    }
    best = { centerX: cu * ux - cv * uy, centerY: cu * uy + cv * ux, width, height, angle, area };
  }
  if (!best) return null;
  const { area: _area, ...outline } = best;
  return outline;
}

/**
 * Finds a document photographed against a background: pixels whose colour stands out from the photo's
 * border are the document; the largest such region, if it is big, not the whole frame, and fills its
 * minimum-area rectangle like a card or a page, is the outline. Null when there is no such region (a
 * close-up filling the frame, a document on a background of its own colour): then the whole photo is
 * read. Meant for a small copy (long side ~400 px).
 *
 * @example
 * findDocumentOutline(smallRgb) // { centerX: 201, centerY: 148, width: 290, height: 183, angle: 4.5 }
 */
export function findDocumentOutline(image: RawImage): DocumentOutline | null {
  if (image.channels !== 3) throw new Error('Document outline needs an RGB image.');
  const { width, height, data } = image;
  const border = borderPixels(image);
  const background = [0, 1, 2].map((channel) => medianOf(border.map((i) => data[i * 3 + channel] as number)));
  const distance = (i: number) =>
    Math.hypot(
      (data[i * 3] as number) - (background[0] as number),
      (data[i * 3 + 1] as number) - (background[1] as number),
      (data[i * 3 + 2] as number) - (background[2] as number),
    );
  // A textured background (wood, fabric) varies; only what differs more than it does is document.
  const borderSpread = border.map(distance).sort((a, b) => a - b)[Math.floor(border.length * 0.9)] ?? 0;
  const threshold = Math.max(MIN_COLOUR_DISTANCE, borderSpread * 2.5);
  let mask: Uint8Array = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) if (distance(i) > threshold) mask[i] = 1;
  // Close the holes text and the portrait leave in a document, then drop thin bridges to clutter.
  mask = morph(morph(mask, width, height, 2, false), width, height, 2, true);
  mask = morph(morph(mask, width, height, 1, true), width, height, 1, false);
  const { region, area } = largestRegion(mask, width);
  const share = area / (width * height);
  if (share < MIN_AREA_SHARE || share > MAX_AREA_SHARE) return null;
  const edge: Point[] = [];
  for (let y = 0; y < height; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      if (region[y * width + x] === 0) continue;
      if (first < 0) first = x;
      last = x;
    }
    if (first >= 0)
      edge.push({ x: first, y }, { x: last + 1, y }, { x: first, y: y + 1 }, { x: last + 1, y: y + 1 });
  }
  const outline = minimumAreaRectangle(convexHull(edge));
  if (!outline || area / (outline.width * outline.height) < MIN_RECTANGULARITY) return null;
  return outline;
}
