import {
  ANALYSIS_LONG_SIDE,
  type CaptureIssue,
  judgeCapture,
  measureCapture,
  relativeContrast,
} from './quality/capture-quality.ts';
import { lumaOfRgba } from './quality/luma-image.ts';

/** On-device quality issues: the server's `quality.issues` codes, from the same judgement. */
export type FrameIssue = CaptureIssue;

export interface FrameQuality {
  /** Mean luma, 0–255. */
  brightness: number;
  /** Variance of the 4-neighbour Laplacian of luma at the analysis size: high for crisp edges. */
  sharpness: number;
  /** Share of specular highlights (clipped pixels not reaching the border), 0–1. */
  glare: number;
  /** Luma spread over its mean (see `relativeContrast`): near zero for an empty or covered frame. */
  contrast: number;
  issues: FrameIssue[];
  ok: boolean;
}

/**
 * Width of the analysis copy of a landscape frame: the shared analysis long side
 * (quality/capture-quality.ts), so the widget measures exactly what the server measures.
 */
export const ANALYSIS_WIDTH = ANALYSIS_LONG_SIDE;

/**
 * Scores one RGBA frame (as `ImageData.data`) already downscaled to the analysis size, with the device's
 * limits of the shared judgement: the widget auto-captures only what the server will keep. `source` is
 * the camera frame's own size (judged for `too_small`); by default the analysis size itself.
 *
 * @example
 *   const { data, width, height } = ctx.getImageData(0, 0, 640, 360);
 *   analyzeFrame(data, width, height, { width: 1280, height: 720 }).issues // → ['blurry']
 */
export function analyzeFrame(
  rgba: ArrayLike<number>,
  width: number,
  height: number,
  source: { width: number; height: number } = { width, height },
): FrameQuality {
  const metrics = measureCapture(lumaOfRgba(rgba, width, height), source);
  const { issues, ok } = judgeCapture(metrics, 'document', 'device');
  return {
    brightness: metrics.brightness,
    sharpness: metrics.sharpness,
    glare: metrics.glare,
    contrast: relativeContrast(metrics),
    issues,
    ok,
  };
}
