import type { LumaImage } from './luma-image.ts';
import { laplacianVariance, luminanceStats, specularRatio } from './luma-metrics.ts';

/**
 * The one quality judgement of a capture, shared by the widget's live guidance (on video frames) and the
 * server's gate (on uploads): the same metrics, computed by the same code on a luma copy of the same
 * size, judged against the same limits, the server's relaxed by {@link SERVER_MARGIN}. So a frame the
 * widget takes by itself is one the server keeps: what the device accepts, the server accepts with room
 * to spare for JPEG encoding and a different resampler.
 */

/** The long side, in pixels, of the luma copy every metric is computed on (never enlarged). */
export const ANALYSIS_LONG_SIDE = 640;

/** The issue codes of `quality.issues` (API.md §9), most important first. */
export type CaptureIssue = 'too_small' | 'too_dark' | 'glare' | 'no_document' | 'blurry';
export type CapturePurpose = 'document' | 'selfie';
/** Who judges: the widget before it captures, or the server when the photo arrives. */
export type CaptureJudge = 'device' | 'server';

export interface CaptureMetrics {
  /** The capture's own size (upright), not the analysis copy's. */
  width: number;
  height: number;
  /** Mean luma, 0–255. */
  brightness: number;
  /** Standard deviation of luma: how much the picture varies at all. */
  contrast: number;
  /** Variance of the Laplacian at the analysis size: low means few edges, i.e. blur. */
  sharpness: number;
  /** Share of the picture that is a specular highlight (clipped, not reaching the border). */
  glare: number;
}

export interface CaptureLimits {
  /** Below this many pixels on the capture's long side there is too little detail to read. */
  minLongSide: number;
  /** Below this mean luma the capture is too dark. */
  minBrightness: number;
  /** Above this specular share a highlight hides part of the document. */
  maxGlare: number;
  /** Below this Laplacian variance the capture is blurry. */
  minSharpness: number;
  /** Below this relative contrast (see {@link relativeContrast}) a document photo holds nothing; 0 for selfies. */
  minContrast: number;
}

/**
 * What the widget asks of a frame before it captures by itself. Calibrated at the analysis size on the
 * synthetic captures of test/node/widget/capture-quality.test.ts (never on the document fixtures the
 * reader is measured on):
 *
 * - Documents, long side 640: the smallest camera mode a phone or webcam still offers; at 60 % of the
 *   frame a TD3 page's machine-readable zone then has about 8 px per character, the least OCR copes with.
 *   A 900 px scan of a page that fills the image has twice that.
 * - Brightness 55: about 1.5 stops under a mid-grey exposure; a lit document on a dark desk averages
 *   far above 100, a dim room ~60 and stays readable.
 * - Glare 3 %: a reflection on a laminated card that covers 3 % of the frame covers ~8 % of the card.
 * - Sharpness 120: a 1280×720 document frame blurred by σ = 1.5 px (legible) scores above it, σ = 3
 *   (text smeared) below.
 * - Contrast 0.08: a wall, a sheet of paper or a covered lens score under 0.04; any document over 0.2.
 * - Selfies are softer (skin has few edges, webcams smooth) and often have a bright window behind:
 *   sharpness 60, glare 18 %, 480 px for a VGA webcam; no contrast test (a face is never "no document").
 */
export const DEVICE_LIMITS: Readonly<Record<CapturePurpose, Readonly<CaptureLimits>>> = {
  document: { minLongSide: 640, minBrightness: 55, maxGlare: 0.03, minSharpness: 120, minContrast: 0.08 },
  selfie: { minLongSide: 480, minBrightness: 55, maxGlare: 0.18, minSharpness: 60, minContrast: 0 },
};

/**
 * How much more lenient the server is than the device, limit by limit. The device judges the raw video
 * frame; the server sees the same frame after JPEG encoding and another resampler (libvips' Lanczos
 * against the canvas' bilinear), which moves sharpness by up to ±30 % and brightness by a few levels
 * (measured in test/node/widget/capture-quality.test.ts). The margins are wider than that drift, so a
 * frame the widget accepted is never refused for quality by the server.
 */
export const SERVER_MARGIN = {
  /** The server accepts 10 % fewer pixels on the long side. */
  longSideFactor: 0.9,
  /** 10 luma levels darker. */
  brightness: 10,
  /** 2 percentage points more specular highlight. */
  glare: 0.02,
  /** Half the sharpness. */
  sharpnessFactor: 0.5,
  /** Half the relative contrast. */
  contrastFactor: 0.5,
} as const;

/** The limits a judge applies to a purpose: the device's, or the device's relaxed by {@link SERVER_MARGIN}. */
export function captureLimits(purpose: CapturePurpose, judge: CaptureJudge): CaptureLimits {
  const device = DEVICE_LIMITS[purpose];
  if (judge === 'device') return device;
  return {
    minLongSide: Math.floor(device.minLongSide * SERVER_MARGIN.longSideFactor),
    minBrightness: device.minBrightness - SERVER_MARGIN.brightness,
    maxGlare: device.maxGlare + SERVER_MARGIN.glare,
    minSharpness: device.minSharpness * SERVER_MARGIN.sharpnessFactor,
    minContrast: device.minContrast * SERVER_MARGIN.contrastFactor,
  };
}

/**
 * Luma spread over the mean, with the mean taken as at least 64: relative, so a dark but structured
 * frame is "too dark", not "no document"; floored, because under 64 sensor noise, not the scene, sets
 * the spread (a covered lens still reads as empty).
 */
export function relativeContrast(metrics: Pick<CaptureMetrics, 'brightness' | 'contrast'>): number {
  return metrics.contrast / Math.max(metrics.brightness, 64);
}

/** The size of the analysis copy of a `width` × `height` capture: long side {@link ANALYSIS_LONG_SIDE}, never enlarged. */
export function analysisSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, ANALYSIS_LONG_SIDE / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Every metric of a capture from its analysis copy (`luma`, made with {@link analysisSize}).
 *
 * @example
 * measureCapture(lumaOfRgba(data, 640, 360), { width: 1280, height: 720 })
 */
export function measureCapture(luma: LumaImage, source: { width: number; height: number }): CaptureMetrics {
  const { brightness, contrast, clipped } = luminanceStats(luma);
  return {
    width: source.width,
    height: source.height,
    brightness,
    contrast,
    sharpness: laplacianVariance(luma),
    glare: specularRatio(luma, clipped),
  };
}

export interface CaptureJudgement {
  ok: boolean;
  issues: CaptureIssue[];
}

/**
 * Judges a capture. `no_document` fires only for an almost uniform picture (a wall, a covered lens, a
 * blank sheet): it is not a document detector. A dark or empty frame is not also called blurry (it has
 * few edges anyway, and "hold still" would send the person the wrong way).
 *
 * @example
 * judgeCapture(metrics, 'document', 'server') // { ok: false, issues: ['blurry'] }
 */
export function judgeCapture(
  metrics: CaptureMetrics,
  purpose: CapturePurpose,
  judge: CaptureJudge,
): CaptureJudgement {
  const limits = captureLimits(purpose, judge);
  const issues: CaptureIssue[] = [];
  if (Math.max(metrics.width, metrics.height) < limits.minLongSide) issues.push('too_small');
  const dark = metrics.brightness < limits.minBrightness;
  if (dark) issues.push('too_dark');
  if (metrics.glare > limits.maxGlare) issues.push('glare');
  const empty = limits.minContrast > 0 && relativeContrast(metrics) < limits.minContrast;
  if (empty) issues.push('no_document');
  if (metrics.sharpness < limits.minSharpness && !dark && !empty) issues.push('blurry');
  return { ok: issues.length === 0, issues };
}
