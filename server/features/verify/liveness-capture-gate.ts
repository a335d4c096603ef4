import type { ImageAnalysis } from '../evidence/image-analyzer.ts';
import { assessQuality, type QualityIssue } from '../evidence/quality.ts';

/** The retry reason of a liveness answer refused for capture quality, before any judgement. */
export const CAPTURE_QUALITY_REASON = 'capture_quality';

/** The selfie issues that make a frame unfit to judge: what the person can fix by light, stillness or camera. */
const REFUSED: readonly QualityIssue[] = ['too_small', 'too_dark', 'blurry'];

/**
 * The capture issues of a liveness attempt's frames, each once, in the judgement's order: empty when
 * every decodable frame is fit to judge. A frame with such an issue is refused before the models run,
 * and the attempt costs nothing (a dark room is not a failed liveness check). Undecodable frames (null)
 * are left to the attempt's own gates.
 *
 * @example
 * livenessCaptureIssues([darkFrameAnalysis, okAnalysis]) // ['too_dark']
 */
export function livenessCaptureIssues(analyses: readonly (ImageAnalysis | null)[]): QualityIssue[] {
  const issues = new Set<QualityIssue>();
  for (const analysis of analyses) {
    if (!analysis) continue;
    for (const issue of assessQuality(analysis, 'selfie').issues)
      if (REFUSED.includes(issue)) issues.add(issue);
  }
  return REFUSED.filter((issue) => issues.has(issue));
}
