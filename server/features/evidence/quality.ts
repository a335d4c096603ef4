import {
  type CaptureIssue,
  type CapturePurpose,
  captureLimits,
  judgeCapture,
} from '../../../src/capture/quality/capture-quality.ts';
import type { ImageAnalysis } from './image-analyzer.ts';

/** The issue codes of `POST /v1/verify/documents` → `quality.issues` (API.md §9). */
export type QualityIssue = CaptureIssue;

export type { CapturePurpose };

export interface QualityAssessment {
  ok: boolean;
  issues: QualityIssue[];
}

/**
 * The server's limits per purpose: the widget's own (src/capture/quality/capture-quality.ts) relaxed by
 * its stated margin, so a frame the widget captured by itself is never refused here for quality.
 */
export const QUALITY_THRESHOLDS: Readonly<Record<CapturePurpose, ReturnType<typeof captureLimits>>> = {
  document: captureLimits('document', 'server'),
  selfie: captureLimits('selfie', 'server'),
};

/**
 * Below this luminance standard deviation (on the grayscale copy) an image holds nothing a face or
 * document detector could find: a covered lens, a wall, a blank sheet. Used by the deterministic vision
 * engine of tests and the sandbox; the quality gate judges emptiness relative to brightness (the shared
 * judgement's `relativeContrast`).
 */
export const NO_DOCUMENT_MAX_CONTRAST = 6;

/**
 * Decides whether a capture is good enough to read, and if not, what the end-user should fix: the
 * shared judgement with the server's limits.
 *
 * `no_document` is a cheap heuristic, not a detector: it fires only when the frame is almost uniform
 * (a covered lens, a wall, a blank sheet), which cannot hold a document. A photo of a cat or the wrong
 * side of a card passes here and is left to the reader, the review and, where it is inconclusive, a
 * person. Without the analyzer's `contrast`, `no_document` is not reported.
 *
 * @example
 * assessQuality(analysis, 'document') // { ok: false, issues: ['blurry'] }
 */
export function assessQuality(analysis: ImageAnalysis, purpose: CapturePurpose): QualityAssessment {
  return judgeCapture(
    {
      width: analysis.width,
      height: analysis.height,
      brightness: analysis.brightness,
      // Unmeasured contrast reads as a varied picture, so `no_document` is never guessed.
      contrast: analysis.contrast ?? Number.POSITIVE_INFINITY,
      sharpness: analysis.sharpness,
      glare: analysis.glareRatio,
    },
    purpose,
    'server',
  );
}
