import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import type { RawImage } from './decode-upright.ts';
import { fft2d } from './fft.ts';

/**
 * A straight streak the camera's shake drew every point of the photo into: `length` pixels long, at
 * `angle` radians from the x axis (0 to π). `contrast` is how clearly the photo's spectrum shows it (see
 * {@link estimateMotionBlur}).
 */
export interface MotionStreak {
  length: number;
  angle: number;
  contrast: number;
}

/** The square tiles whose spectra are averaged: a streak up to {@link MAX_STREAK} px fits well inside one. */
const TILE = 256;
/**
 * The shortest and the longest streak looked for, in pixels. Shorter, the cepstrum is crowded by what
 * sharp photos show there too (print and resampling patterns at about 5 px: up to 23 of the contrast
 * below on the generated half A's sharp photos, with 5 to 24 px searched); longer, by a desk's grain and
 * a hologram's stripes along the axes (15 to 24 px, up to 24). The generated motion blur's 7 to 11 px
 * streaks are found at 5.8 to 10.8 px. A PDF417 barcode's bars can still show at the ring's edge (the
 * committed licence backs: 14 px along the axis, 11.3 and 13.5): that costs a look, never a reading.
 */
const MIN_STREAK = 5.75;
const MAX_STREAK = 14;
/**
 * How far the cepstrum's deepest point in the streak ring must stand below the ring's median, in the
 * ring's own median absolute deviations, for the photo to count as streaked. The spectrum of a straight
 * streak has evenly spaced zeros across it, which the cepstrum gathers into one deep negative point at the
 * streak's length and angle; a sharp photo's cepstrum has no such point. Chosen between what the two
 * kinds of photo showed (2026-12-01, looking at this number only, not at any reading): the 60 motion-blurred
 * photos of the generated seeds 3 and 5, 11.1 to 63.6; the 300 other photos of half A, at most 8.0; the
 * 131 real specimens large enough to measure, at most 8.4 (a JPEG's 8-pixel blocks).
 */
const MIN_STREAK_CONTRAST = 10;

/** `IDV_MRZ_DEBUG=1`: each photo's deepest cepstrum point and its contrast, on stderr (as read-mrz.ts does). */
const DEBUG = process.env.IDV_MRZ_DEBUG === '1';

/**
 * The straight motion streak a photo was taken with, from its power cepstrum (Cannon, "Blind deconvolution
 * of spatially invariant image blurs with phase", 1976): the log power spectrum is averaged over tiles of
 * the photo (Welch), transformed back, and its deepest point at a distance of {@link MIN_STREAK} to
 * {@link MAX_STREAK} px from the origin is the streak's end. Null when no point stands out clearly
 * ({@link MIN_STREAK_CONTRAST}): a sharp photo, or a blur that is not one straight streak.
 *
 * @example
 * estimateMotionBlur(gray) // { length: 9, angle: 0.52, contrast: 31 } on a photo shaken 9 px at 30°
 */
export function estimateMotionBlur(gray: GrayscaleImage): MotionStreak | null {
  const cepstrum = powerCepstrum(gray);
  if (!cepstrum) return null;
  // The ring of distances a streak's end may lie at, in the half plane (the cepstrum is symmetric).
  const ring: { value: number; dx: number; dy: number }[] = [];
  for (let dy = 0; dy <= MAX_STREAK + 1; dy++) {
    for (let dx = -MAX_STREAK - 1; dx <= MAX_STREAK + 1; dx++) {
      if (dy === 0 && dx < 0) continue;
      const r = Math.hypot(dx, dy);
      if (r < MIN_STREAK || r > MAX_STREAK) continue;
      const index = ((TILE - dy) % TILE) * TILE + ((dx + TILE) % TILE);
      ring.push({ value: cepstrum[index] as number, dx, dy });
    }
  }
  const values = ring.map((point) => point.value).sort((a, b) => a - b);
  const median = values[Math.floor(values.length / 2)] as number;
  const deviations = values.map((value) => Math.abs(value - median)).sort((a, b) => a - b);
  const mad = deviations[Math.floor(deviations.length / 2)] as number;
  let deepest = ring[0];
  for (const point of ring) if (deepest === undefined || point.value < deepest.value) deepest = point;
  if (!deepest || mad <= 0) return null;
  const contrast = (median - deepest.value) / mad;
  if (DEBUG)
    process.stderr.write(
      `motion streak? ${Math.hypot(deepest.dx, deepest.dy).toFixed(1)} px at ${((Math.atan2(deepest.dy, deepest.dx) * 180) / Math.PI).toFixed(0)}°, contrast ${contrast.toFixed(1)}\n`,
    );
  if (contrast < MIN_STREAK_CONTRAST) return null;
  // Image rows grow downwards and the cepstrum's index (TILE − dy) stands for −dy: the streak's direction.
  let angle = Math.atan2(-deepest.dy, deepest.dx);
  if (angle < 0) angle += Math.PI;
  return { length: Math.hypot(deepest.dx, deepest.dy), angle, contrast };
}

/** The photo's power cepstrum over {@link TILE}-pixel tiles, row by row; null when the photo is smaller than a tile. */
export function powerCepstrum(gray: GrayscaleImage): Float64Array | null {
  const { width, height, pixels } = gray;
  if (width < TILE || height < TILE) return null;
  const spectrum = new Float64Array(TILE * TILE);
  const re = new Float64Array(TILE * TILE);
  const im = new Float64Array(TILE * TILE);
  const hann = Float64Array.from(
    { length: TILE },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (TILE - 1)),
  );
  const across = Math.floor(width / TILE);
  const down = Math.floor(height / TILE);
  const x0 = Math.floor((width - across * TILE) / 2);
  const y0 = Math.floor((height - down * TILE) / 2);
  let tiles = 0;
  for (let ty = 0; ty < down; ty++) {
    for (let tx = 0; tx < across; tx++) {
      let mean = 0;
      for (let y = 0; y < TILE; y++) {
        const row = (y0 + ty * TILE + y) * width + x0 + tx * TILE;
        for (let x = 0; x < TILE; x++) mean += pixels[row + x] as number;
      }
      mean /= TILE * TILE;
      for (let y = 0; y < TILE; y++) {
        const row = (y0 + ty * TILE + y) * width + x0 + tx * TILE;
        for (let x = 0; x < TILE; x++) {
          re[y * TILE + x] = ((pixels[row + x] as number) - mean) * (hann[x] as number) * (hann[y] as number);
          im[y * TILE + x] = 0;
        }
      }
      fft2d(re, im, TILE, TILE, false);
      for (let i = 0; i < spectrum.length; i++)
        spectrum[i] =
          (spectrum[i] as number) + Math.log((re[i] as number) ** 2 + (im[i] as number) ** 2 + 1e-3);
      tiles++;
    }
  }
  if (tiles === 0) return null;
  for (let i = 0; i < spectrum.length; i++) {
    re[i] = (spectrum[i] as number) / tiles;
    im[i] = 0;
  }
  fft2d(re, im, TILE, TILE, true);
  return re;
}

/**
 * The streak as a point-spread function: the pixels a line of the streak's length and angle, centred on
 * the origin and sampled every quarter pixel, passes through, each weighted by its share of the samples.
 */
function streakTaps(streak: MotionStreak): { x: number; y: number; weight: number }[] {
  const taps = new Map<string, { x: number; y: number; weight: number }>();
  const half = (streak.length - 1) / 2;
  let samples = 0;
  for (let t = -half; t <= half + 1e-9; t += 0.25) {
    const x = Math.round(t * Math.cos(streak.angle));
    const y = Math.round(t * Math.sin(streak.angle));
    const tap = taps.get(`${x},${y}`) ?? { x, y, weight: 0 };
    tap.weight++;
    taps.set(`${x},${y}`, tap);
    samples++;
  }
  return [...taps.values()].map((tap) => ({ ...tap, weight: tap.weight / samples }));
}

/**
 * The noise-to-signal ratio of the Wiener filter: how much of the streak's lost detail is restored. Lower
 * restores more and rings more around the print.
 */
const WIENER_NSR = 0.02;

function nextPowerOfTwo(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

/**
 * The photo with the streak taken out by a Wiener filter, as a grey three-channel image: padded by its
 * own edges (so the frame's border does not ring) to a power of two, filtered in the frequency domain.
 *
 * @example
 * const sharper = withoutMotionBlur(gray, { length: 9, angle: 0.52, contrast: 31 })
 */
export function withoutMotionBlur(gray: GrayscaleImage, streak: MotionStreak): RawImage {
  const { width, height, pixels } = gray;
  const margin = Math.ceil(streak.length) + 8;
  const w = nextPowerOfTwo(width + 2 * margin);
  const h = nextPowerOfTwo(height + 2 * margin);
  const re = new Float64Array(w * h);
  const im = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    // Rows and columns past the photo repeat its nearest edge for the first half of the padding and the
    // far edge for the second (where the transform wraps round): the one step lies mid-padding, away from
    // the photo, so its ringing does not reach the print.
    const sy = clampWrap(y - margin, height, h);
    for (let x = 0; x < w; x++) {
      const sx = clampWrap(x - margin, width, w);
      re[y * w + x] = pixels[sy * width + sx] as number;
    }
  }
  // The kernel goes in the imaginary part: one transform gives both spectra (both inputs are real), split
  // by the spectrum's symmetry below.
  for (const { x, y, weight } of streakTaps(streak)) im[((y + h) % h) * w + ((x + w) % w)] = weight;
  fft2d(re, im, w, h, false);
  const outRe = new Float64Array(w * h);
  const outIm = new Float64Array(w * h);
  for (let v = 0; v < h; v++) {
    const mirrorRow = ((h - v) % h) * w;
    for (let u = 0; u < w; u++) {
      const i = v * w + u;
      const j = mirrorRow + ((w - u) % w);
      const zr = re[i] as number;
      const zi = im[i] as number;
      const mr = re[j] as number;
      const mi = im[j] as number;
      // Image G = (Z[k] + conj Z[−k]) / 2, kernel H = (Z[k] − conj Z[−k]) / 2i.
      const gr = (zr + mr) / 2;
      const gi = (zi - mi) / 2;
      const hr = (zi + mi) / 2;
      const hi = (mr - zr) / 2;
      const denominator = hr * hr + hi * hi + WIENER_NSR;
      // F = G · conj(H) / (|H|² + NSR)
      outRe[i] = (gr * hr + gi * hi) / denominator;
      outIm[i] = (gi * hr - gr * hi) / denominator;
    }
  }
  fft2d(outRe, outIm, w, h, true);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = Math.max(0, Math.min(255, Math.round(outRe[(y + margin) * w + x + margin] as number)));
      const o = (y * width + x) * 3;
      data[o] = value;
      data[o + 1] = value;
      data[o + 2] = value;
    }
  }
  return { data, width, height, channels: 3 };
}

/**
 * Index `i` of a padded axis of `padded` samples mapped into an image axis of `size`: inside, itself;
 * in the first half of the padding after the image, its last index; in the second half (which the
 * transform wraps round to the image's start), its first.
 */
function clampWrap(i: number, size: number, padded: number): number {
  if (i >= 0 && i < size) return i;
  const after = i >= size ? i - size : i + padded - size;
  const gap = padded - size;
  // First half of the gap: the last row; second half: the first row.
  return after < gap / 2 ? size - 1 : 0;
}
