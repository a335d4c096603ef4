import type { EmbeddingSpace } from '../features/vision/vision-engine.ts';

/** How close two embeddings are, in their space's metric, and whether that makes them the same person. */
export interface EmbeddingComparison {
  /** The euclidean distance (lower is closer) or the cosine similarity (higher is closer). */
  score: number;
  samePerson: boolean;
}

/**
 * Compares two embeddings of one embedder with the metric and published threshold of its space: the
 * threshold belongs to the model, so no caller hard-codes one. Null when they cannot be compared
 * (different lengths, empty, not finite, or a zero vector under cosine): that proves nothing either way.
 *
 * @example
 * const space = { name: 'dlib-resnet-v1', metric: 'euclidean', threshold: 0.6 } as const;
 * compareEmbeddings([0, 0.3], [0, 0.1], space) // { score: 0.2, samePerson: true } (up to rounding)
 */
export function compareEmbeddings(
  a: readonly number[],
  b: readonly number[],
  space: EmbeddingSpace,
): EmbeddingComparison | null {
  if (a.length === 0 || a.length !== b.length) return null;
  if (!a.every(Number.isFinite) || !b.every(Number.isFinite)) return null;
  if (space.metric === 'euclidean') {
    const score = Math.sqrt(a.reduce((sum, value, i) => sum + (value - (b[i] as number)) ** 2, 0));
    return { score, samePerson: score <= space.threshold };
  }
  const dot = a.reduce((sum, value, i) => sum + value * (b[i] as number), 0);
  const norms = Math.hypot(...a) * Math.hypot(...b);
  if (norms === 0) return null;
  const score = dot / norms;
  return { score, samePerson: score >= space.threshold };
}
