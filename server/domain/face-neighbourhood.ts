import type { EmbeddingSpace, NeighbourhoodModel } from '../features/vision/vision-engine.ts';

/**
 * Some faces sit in a crowded part of the embedder's space: strangers come closer to them than to most
 * faces (the same embedder separates some groups of people less well than others). A single distance
 * limit then matches strangers of those faces too easily and rejects or doubts genuine pairs elsewhere.
 * Biometric systems correct for this with a cohort of other people's faces (Z-, T- and S-norm). Here a
 * linear model predicts, from one face's embedding, the mean distance to its nearest strangers, so no
 * cohort of real faces is shipped; the distance is then shifted by how far the two faces' predictions lie
 * from a typical face's:
 *
 *     adjusted = distance − (predicted(a) + predicted(b)) / 2 + typical
 *
 * On half B of 595 LFW people (not fitted on), at the limit where about 0.07 % of impostor pairs match,
 * it cut the genuine pairs beyond that limit from 7.1 % to 3.9 % (docs/verification.md).
 */

/**
 * The predicted mean distance from `embedding` to its nearest faces of other people, brought into the
 * fitted range. Null when the model was fitted on embeddings of another length.
 *
 * @example
 * predictedNeighbourDistance([1, 0], { weights: [0.1, 0], bias: 0.6, typical: 0.65, min: 0.6, max: 0.7 }) // 0.7
 */
export function predictedNeighbourDistance(
  embedding: readonly number[],
  model: NeighbourhoodModel,
): number | null {
  if (embedding.length !== model.weights.length) return null;
  let predicted = model.bias;
  for (let i = 0; i < embedding.length; i++)
    predicted += (model.weights[i] as number) * (embedding[i] as number);
  return Math.min(model.max, Math.max(model.min, predicted));
}

/**
 * `distance` between embeddings `a` and `b`, adjusted for both faces' neighbourhoods when `space` has a
 * model (and is euclidean); otherwise `distance` unchanged. Null when the model does not fit the
 * embeddings' length: such a pair cannot be judged on this space's zones.
 *
 * @example
 * const model = { weights: [0.1, 0], bias: 0.6, typical: 0.65, min: 0.6, max: 0.7 };
 * const space = { name: 'x', metric: 'euclidean', threshold: 0.6, neighbourhood: model } as const;
 * adjustedDistance(0.5, [1, 0], [0, 1], space) // 0.5 − (0.7 + 0.6) / 2 + 0.65 = 0.5
 */
export function adjustedDistance(
  distance: number,
  a: readonly number[],
  b: readonly number[],
  space: EmbeddingSpace,
): number | null {
  const model = space.neighbourhood;
  if (model === undefined || space.metric !== 'euclidean') return distance;
  const nearA = predictedNeighbourDistance(a, model);
  const nearB = predictedNeighbourDistance(b, model);
  if (nearA === null || nearB === null) return null;
  return distance - (nearA + nearB) / 2 + model.typical;
}
