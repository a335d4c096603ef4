import type { ImageAnalysis } from './image-analyzer.ts';

/** The issue codes of `POST /v1/verify/documents` → `quality.issues` (API.md §9). */
export type QualityIssue = 'blurry' | 'glare' | 'too_dark' | 'too_small' | 'no_document';

export type CapturePurpose = 'document' | 'selfie';

export interface QualityAssessment {
  ok: boolean;
  issues: QualityIssue[];
}

interface QualityThresholds {
  /** Below this `sharpness` (Laplacian variance at 640 px) the image is blurry. */
  minSharpness: number;
  /** Above this `glareRatio` the highlights hide too much. */
  maxGlareRatio: number;
  /** Below this `brightness` (mean luminance) the image is too dark. */
  minBrightness: number;
  /** Below this many pixels on the long side there is too little detail. */
  minLongSide: number;
}

/**
 * Calibrated on synthetic ID-card photos (see `test/node/evidence/quality.test.ts`): a sharp one
 * scores ~1500, Gaussian blur σ=2 px at 1600 px wide ~340, σ=3 ~120, σ=4 ~55, σ=8 ~10.
 *
 * - Documents, sharpness 100: the common variance-of-Laplacian cut-off; σ=4 blur (text no longer
 *   legible at 640 px) fails, σ=3 still passes so a slightly soft phone photo is not bounced.
 * - Documents, glare 5 %: sensor-clipped pixels are rare on a well-exposed card (paper sits at
 *   200–240), while a specular hotspot on a laminated card covering 5 % of the frame hides a field.
 * - Brightness 45: about 1.5 stops under a mid-grey exposure; a correctly lit card on a dark table
 *   still averages well above 100, a dim room ~60 and remains readable.
 * - Documents, long side 1000 px: at that size an ID-1 card filling ~70 % of the frame has about
 *   8 px per MRZ character, the least OCR copes with.
 * - Selfies are softer (skin has few edges, webcams smooth) and often have a bright window or wall
 *   behind, so sharpness 30 and glare 20 %; 480 px suits a VGA webcam frame.
 */
export const QUALITY_THRESHOLDS: Readonly<Record<CapturePurpose, Readonly<QualityThresholds>>> = {
  document: { minSharpness: 100, maxGlareRatio: 0.05, minBrightness: 45, minLongSide: 1000 },
  selfie: { minSharpness: 30, maxGlareRatio: 0.2, minBrightness: 45, minLongSide: 480 },
};

/**
 * Below this luminance standard deviation (on the 640 px grayscale copy) a document photo is treated as
 * holding no document: the frame is almost uniform. Measured on synthetic photos: a sharp ID card ~77,
 * the same card blurred to illegibility (σ=20) ~60, under-exposed to brightness 28 ~15, a card filling
 * the frame ~69; a blank wall with heavy sensor noise ~4, a covered lens or a blank sheet ~1. A
 * document dark enough to fall below 6 would average a brightness near 10, i.e. nothing is visible.
 */
export const NO_DOCUMENT_MAX_CONTRAST = 6;

/**
 * Decides whether a capture is good enough to keep, and if not, what the end-user should fix.
 *
 * `no_document` is a cheap heuristic, not a detector: it fires only when the frame is almost uniform
 * (a covered lens, a wall, a blank sheet, the floor), which cannot hold a document. It will not notice a
 * photo of a cat, a keyboard or the wrong side of a card: telling those apart needs an object detector
 * we do not have, and guessing from edges or layout would bounce genuine uploads. Those photos pass here
 * and are left to the review and, where it is inconclusive, to a person. It needs the analyzer's
 * `contrast`; without it `no_document` is not reported.
 *
 * @example
 * assessQuality(analysis, 'document') // { ok: false, issues: ['blurry'] }
 */
export function assessQuality(analysis: ImageAnalysis, purpose: CapturePurpose): QualityAssessment {
  const limits = QUALITY_THRESHOLDS[purpose];
  const issues: QualityIssue[] = [];
  if (Math.max(analysis.width, analysis.height) < limits.minLongSide) issues.push('too_small');
  if (analysis.brightness < limits.minBrightness) issues.push('too_dark');
  if (analysis.glareRatio > limits.maxGlareRatio) issues.push('glare');
  const empty =
    purpose === 'document' && analysis.contrast !== undefined && analysis.contrast < NO_DOCUMENT_MAX_CONTRAST;
  if (empty) issues.push('no_document');
  // A very dark image has few strong edges anyway, and an empty frame has nothing to be sharp: blaming
  // blur too would send the user the wrong way.
  if (analysis.sharpness < limits.minSharpness && !issues.includes('too_dark') && !empty) {
    issues.push('blurry');
  }
  return { ok: issues.length === 0, issues };
}
