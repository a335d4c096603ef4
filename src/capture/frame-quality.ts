/** On-device quality issues, named like the server's `quality.issues` so guidance shares one vocabulary. */
export type FrameIssue = 'too_dark' | 'glare' | 'blurry' | 'no_document';

export interface FrameQuality {
  /** Mean luma, 0–255. */
  brightness: number;
  /** Variance of the 4-neighbour Laplacian of luma: high for crisp edges, low for blur. */
  sharpness: number;
  /** Share of near-white pixels (specular reflections), 0–1. */
  glare: number;
  /** Standard deviation of luma over its mean: near zero for an empty or covered frame. */
  contrast: number;
  issues: FrameIssue[];
  ok: boolean;
}

export interface QualityThresholds {
  minBrightness: number;
  maxGlare: number;
  minSharpness: number;
  minContrast: number;
}

/**
 * Tuned on a 320×180 analysis frame (the size `ANALYSIS_WIDTH` gives for 16:9). Sharpness depends on
 * the analysis size, which is why frames are always downscaled to it before analysis.
 */
export const DEFAULT_THRESHOLDS: QualityThresholds = {
  minBrightness: 55,
  maxGlare: 0.03,
  minSharpness: 150,
  minContrast: 0.08,
};

/** Width frames are downscaled to before analysis: ~57 k pixels keeps a pass well under 4 ms. */
export const ANALYSIS_WIDTH = 320;

const GLARE_LUMA = 250;

/**
 * Scores one RGBA frame (as `ImageData.data`). Pure and allocation-light so it runs on every video
 * frame and under `node:test`.
 *
 * @example
 *   const { data, width, height } = ctx.getImageData(0, 0, 320, 180);
 *   analyzeFrame(data, width, height).issues // → ['blurry']
 */
export function analyzeFrame(
  rgba: ArrayLike<number>,
  width: number,
  height: number,
  thresholds: QualityThresholds = DEFAULT_THRESHOLDS,
): FrameQuality {
  const count = width * height;
  const luma = new Uint8Array(count);
  let sum = 0;
  let sumSq = 0;
  let bright = 0;
  for (let i = 0, p = 0; i < count; i++, p += 4) {
    // BT.601 weights in fixed point (77 + 150 + 29 = 256).
    const y = ((rgba[p] as number) * 77 + (rgba[p + 1] as number) * 150 + (rgba[p + 2] as number) * 29) >> 8;
    luma[i] = y;
    sum += y;
    sumSq += y * y;
    if (y >= GLARE_LUMA) bright++;
  }
  const brightness = sum / count;
  // Relative, so a dark but structured frame is "too dark", not "no document".
  const contrast = Math.sqrt(Math.max(0, sumSq / count - brightness * brightness)) / Math.max(brightness, 1);

  let lapSum = 0;
  let lapSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const lap =
        4 * (luma[i] as number) -
        (luma[i - 1] as number) -
        (luma[i + 1] as number) -
        (luma[i - width] as number) -
        (luma[i + width] as number);
      lapSum += lap;
      lapSq += lap * lap;
      n++;
    }
  }
  const lapMean = n ? lapSum / n : 0;
  const sharpness = n ? lapSq / n - lapMean * lapMean : 0;
  const glare = bright / count;

  const issues: FrameIssue[] = [];
  if (brightness < thresholds.minBrightness) issues.push('too_dark');
  if (contrast < thresholds.minContrast) issues.push('no_document');
  else {
    if (glare > thresholds.maxGlare) issues.push('glare');
    if (sharpness < thresholds.minSharpness) issues.push('blurry');
  }
  return { brightness, sharpness, glare, contrast, issues, ok: issues.length === 0 };
}
