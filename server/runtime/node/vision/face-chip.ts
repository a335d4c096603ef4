import type { RawImage } from './decode-upright.ts';
import type { MeshPoint } from './face-geometry.ts';

/**
 * The aligned face crop ("chip") dlib's ResNet embedder was trained on, made from the face mesh: dlib's
 * `get_face_chip_details(shape, 150, 0.25)` (what its `compute_face_descriptor` uses) maps five landmarks
 * (the corners of both eyes and the bottom of the nose) onto fixed places of a 150 × 150 chip by a
 * similarity transform (rotation, uniform scale, shift). A box crop instead leaves the head's roll, its
 * scale and the eyes' height to vary from photo to photo, which the embedder reads as identity.
 */

/** dlib's chip side and padding for the face recogniser (dlib/dnn_face_recognition). */
export const FACE_CHIP_SIZE = 150;
export const FACE_CHIP_PADDING = 0.25;

/**
 * dlib's template for its 5-point shape, in the unit square before padding (dlib/image_transforms/
 * interpolation.h, `get_face_chip_details`): outer and inner corner of the eye on the image's right, outer
 * and inner corner of the eye on the image's left, bottom of the nose.
 */
const DLIB_FIVE_POINT_TEMPLATE: readonly (readonly [number, number])[] = [
  [0.8595674595992, 0.2134981538014],
  [0.6460604764104, 0.2289674387677],
  [0.1205750620789, 0.2137274526848],
  [0.3340850613712, 0.2290642403242],
  [0.4901123135679, 0.6277975316475],
];

/**
 * The same five points in MediaPipe's face mesh, in the template's order. The person's left eye is on the
 * image's right in an unmirrored photo: 263 its outer corner, 362 its inner; 33 and 133 the right eye's;
 * 2 the bottom of the nose (MediaPipe's `noseBottom`).
 */
const MESH_FIVE_POINTS = [263, 362, 33, 133, 2] as const;

/** x' = a·x − b·y + tx, y' = b·x + a·y + ty: rotation and scale (a, b) and a shift. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/**
 * The least-squares similarity transform taking `from` onto `to` (no reflection).
 *
 * @example
 * similarityTransform([[0, 0], [1, 0]], [[10, 10], [10, 12]]) // { a: 0, b: 2, tx: 10, ty: 10 } (a 90° turn, twice the size)
 */
export function similarityTransform(
  from: readonly (readonly [number, number])[],
  to: readonly (readonly [number, number])[],
): Similarity {
  if (from.length !== to.length || from.length < 2) throw new Error('Need two or more point pairs.');
  const n = from.length;
  const mean = (points: readonly (readonly [number, number])[]) => [
    points.reduce((sum, p) => sum + p[0], 0) / n,
    points.reduce((sum, p) => sum + p[1], 0) / n,
  ];
  const [fx, fy] = mean(from) as [number, number];
  const [qx, qy] = mean(to) as [number, number];
  let norm = 0;
  let dot = 0;
  let cross = 0;
  for (let i = 0; i < n; i++) {
    const px = (from[i] as [number, number])[0] - fx;
    const py = (from[i] as [number, number])[1] - fy;
    const ux = (to[i] as [number, number])[0] - qx;
    const uy = (to[i] as [number, number])[1] - qy;
    norm += px * px + py * py;
    dot += px * ux + py * uy;
    cross += px * uy - py * ux;
  }
  if (norm === 0) throw new Error('The source points coincide.');
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: qx - (a * fx - b * fy), ty: qy - (b * fx + a * fy) };
}

/**
 * The transform from image pixels to dlib's 150 × 150 chip for the face whose mesh is `mesh`.
 *
 * @example
 * const toChip = faceChipTransform(face.mesh);
 */
export function faceChipTransform(
  mesh: readonly MeshPoint[],
  size = FACE_CHIP_SIZE,
  padding = FACE_CHIP_PADDING,
): Similarity {
  const from = MESH_FIVE_POINTS.map((index): [number, number] => {
    const point = mesh[index];
    if (!point) throw new Error(`Face mesh has no landmark ${index}.`);
    return [point[0], point[1]];
  });
  const to = DLIB_FIVE_POINT_TEMPLATE.map(([x, y]): [number, number] => [
    ((padding + x) / (2 * padding + 1)) * size,
    ((padding + y) / (2 * padding + 1)) * size,
  ]);
  return similarityTransform(from, to);
}

/**
 * The chip as float RGB (0–255, row-major, 3 values per pixel): each chip pixel is the mean of a grid of
 * bilinear samples of the image, as many per side as image pixels the chip pixel spans (up to 4), so a
 * large face is averaged down instead of aliased. Outside the image is black, as dlib pads. `mirror`
 * flips the chip left to right.
 *
 * @example
 * const rgb = extractFaceChip(image, faceChipTransform(face.mesh)); // 150 × 150 × 3 values
 */
export function extractFaceChip(
  image: RawImage,
  toChip: Similarity,
  options: { size?: number; mirror?: boolean } = {},
): Float32Array {
  if (image.channels !== 3) throw new Error('A face chip needs an RGB image.');
  const size = options.size ?? FACE_CHIP_SIZE;
  // Inverse of the similarity: chip (u, v) → image (x, y).
  const scale2 = toChip.a * toChip.a + toChip.b * toChip.b;
  const ia = toChip.a / scale2;
  const ib = -toChip.b / scale2;
  const itx = -(ia * toChip.tx - ib * toChip.ty);
  const ity = -(ib * toChip.tx + ia * toChip.ty);
  const pixelsPerChipPixel = Math.sqrt(ia * ia + ib * ib);
  const grid = Math.min(4, Math.max(1, Math.ceil(pixelsPerChipPixel)));
  const out = new Float32Array(size * size * 3);
  const { data, width, height } = image;
  const samples = grid * grid;
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      let r = 0;
      let g = 0;
      let bl = 0;
      for (let sy = 0; sy < grid; sy++) {
        const cv = v + (sy + 0.5) / grid - 0.5;
        for (let sx = 0; sx < grid; sx++) {
          const cu = u + (sx + 0.5) / grid - 0.5;
          // Bilinear interpolation at the image point (x, y); outside the image is black.
          const x = ia * cu - ib * cv + itx;
          const y = ib * cu + ia * cv + ity;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const dx = x - x0;
          const dy = y - y0;
          for (let corner = 0; corner < 4; corner++) {
            const px = x0 + (corner & 1);
            const py = y0 + (corner >> 1);
            if (px < 0 || py < 0 || px >= width || py >= height) continue;
            const weight = (corner & 1 ? dx : 1 - dx) * (corner >> 1 ? dy : 1 - dy);
            const offset = (py * width + px) * 3;
            r += (data[offset] as number) * weight;
            g += (data[offset + 1] as number) * weight;
            bl += (data[offset + 2] as number) * weight;
          }
        }
      }
      const column = options.mirror ? size - 1 - u : u;
      const offset = (v * size + column) * 3;
      out[offset] = r / samples;
      out[offset + 1] = g / samples;
      out[offset + 2] = bl / samples;
    }
  }
  return out;
}

/**
 * The chip's eye centres (x, y), from dlib's template above: the eye on the image's left, then the one on
 * its right; and the eye patch's half width and half height around each, pixels of the 150 px chip.
 */
const CHIP_EYES: readonly (readonly [number, number])[] = [
  [templateX((0.1205750620789 + 0.3340850613712) / 2), templateX((0.2137274526848 + 0.2290642403242) / 2)],
  [templateX((0.8595674595992 + 0.6460604764104) / 2), templateX((0.2134981538014 + 0.2289674387677) / 2)],
];
const EYE_HALF = [12, 7] as const;

function templateX(unit: number): number {
  return ((FACE_CHIP_PADDING + unit) / (2 * FACE_CHIP_PADDING + 1)) * FACE_CHIP_SIZE;
}

/** How much the chip shows of what tells two people apart: see {@link chipQuality}. */
export interface ChipQuality {
  /**
   * Variance of the Laplacian of the chip's luminance inside the face, ÷ the luminance's variance there:
   * the share of the face's contrast in the finest detail, whatever the light. A sharp photo gives about
   * 0.1–0.4; a blurred or enlarged low-resolution face, much less.
   */
  sharpness: number;
  /**
   * The darker eye patch's mean luminance ÷ the mid-face's (nose and cheeks): about 0.7–1 with both eyes
   * uncovered; dark sunglasses (or a hand, or deep shadow) crush it toward 0.3.
   */
  eyes: number;
}

/**
 * The chip's sharpness and eye visibility, measured on the 150 × 150 chip the embedder sees (so the same
 * scale for every face, whatever its size in the photo). About 0.2 ms per face.
 *
 * @example
 * chipQuality(extractFaceChip(image, faceChipTransform(face.mesh))) // { sharpness: 0.21, eyes: 0.83 }
 */
export function chipQuality(chip: Float32Array, size = FACE_CHIP_SIZE): ChipQuality {
  const luma = new Float32Array(size * size);
  for (let i = 0; i < luma.length; i++) {
    luma[i] =
      0.299 * (chip[3 * i] as number) +
      0.587 * (chip[3 * i + 1] as number) +
      0.114 * (chip[3 * i + 2] as number);
  }
  const scale = size / FACE_CHIP_SIZE;
  const at = (x: number, y: number) => luma[y * size + x] as number;
  // The face proper: the template's unit square (25–125 on a 150 px chip), less a margin for the border.
  const from = Math.round(30 * scale);
  const to = Math.round(120 * scale);
  let sum = 0;
  let sumSquares = 0;
  let lapSum = 0;
  let lapSquares = 0;
  let n = 0;
  for (let y = from; y < to; y++) {
    for (let x = from; x < to; x++) {
      const value = at(x, y);
      const lap = at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) - 4 * value;
      sum += value;
      sumSquares += value * value;
      lapSum += lap;
      lapSquares += lap * lap;
      n++;
    }
  }
  const variance = sumSquares / n - (sum / n) ** 2;
  const lapVariance = lapSquares / n - (lapSum / n) ** 2;
  const sharpness = variance > 1e-6 ? lapVariance / variance : 0;

  const meanOf = (x0: number, y0: number, x1: number, y1: number) => {
    let total = 0;
    let count = 0;
    for (let y = Math.round(y0 * scale); y < Math.round(y1 * scale); y++) {
      for (let x = Math.round(x0 * scale); x < Math.round(x1 * scale); x++) {
        total += at(x, y);
        count++;
      }
    }
    return total / count;
  };
  // Mid-face: below the eyes, above the mouth, between the outer eye corners.
  const midFace = meanOf(45, 62, 105, 92);
  const eyeMeans = CHIP_EYES.map(([cx, cy]) =>
    meanOf(cx - EYE_HALF[0], cy - EYE_HALF[1], cx + EYE_HALF[0], cy + EYE_HALF[1]),
  );
  const eyes = midFace > 1 ? Math.min(...eyeMeans) / midFace : 0;
  return { sharpness, eyes };
}
