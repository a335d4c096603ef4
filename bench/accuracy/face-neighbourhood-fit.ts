// Fits the face match's neighbourhood model (server/domain/face-neighbourhood.ts): for every face of a
// tuning set, the mean distance to its nearest faces of other people (its "neighbourhood" of strangers),
// then a ridge regression of that mean on the face's embedding, so the server can predict it for a new
// face without keeping anybody's embedding. Pure: fit-face-neighbourhood.ts reads the set and writes the
// model.
import { predictedNeighbourDistance } from '../../server/domain/face-neighbourhood.ts';
import type { NeighbourhoodModel } from '../../server/features/vision/vision-engine.ts';

export interface FittingFace {
  person: string;
  embedding: readonly number[];
}

export interface FitOptions {
  /** How many nearest strangers a face's mean distance is taken over (20 in the shipped model). */
  neighbours: number;
  /** Ridge penalty on the weights (not the bias); 1 in the shipped model. */
  lambda: number;
}

function euclidean(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += ((a[i] as number) - (b[i] as number)) ** 2;
  return Math.sqrt(sum);
}

/**
 * Each face's mean euclidean distance to its `neighbours` nearest faces of other people in `faces` (fewer
 * when there are fewer strangers; null for a face with none).
 *
 * @example
 * nearestStrangerMeans([{ person: 'a', embedding: [0] }, { person: 'b', embedding: [1] }, { person: 'c', embedding: [3] }], 1)
 * // [1, 1, 2]
 */
export function nearestStrangerMeans(faces: readonly FittingFace[], neighbours: number): (number | null)[] {
  return faces.map((face) => {
    const distances = faces
      .filter((other) => other.person !== face.person)
      .map((other) => euclidean(face.embedding, other.embedding))
      .sort((x, y) => x - y)
      .slice(0, neighbours);
    return distances.length === 0
      ? null
      : distances.reduce((sum, value) => sum + value, 0) / distances.length;
  });
}

/**
 * Least squares of `targets` on `rows` with an intercept and a ridge penalty `lambda` on the other
 * weights, by the normal equations (Gauss–Jordan with partial pivoting; 129 unknowns for dlib's 128).
 *
 * @example
 * ridgeRegression([[0], [1], [2]], [1, 3, 5], 0) // { bias: 1, weights: [2] } (up to rounding)
 */
export function ridgeRegression(
  rows: readonly (readonly number[])[],
  targets: readonly number[],
  lambda: number,
): { bias: number; weights: number[] } {
  const first = rows[0];
  if (first === undefined || rows.length !== targets.length)
    throw new Error('ridgeRegression: no rows, or not one target per row');
  const n = first.length + 1;
  const design = rows.map((row, r) => {
    if (row.length !== n - 1)
      throw new Error(`ridgeRegression: row ${r} has ${row.length} values, not ${n - 1}`);
    return [1, ...row];
  });
  // The normal equations (XᵀX + λI) w = Xᵀy as an augmented matrix; the intercept is not penalised.
  const system: number[][] = Array.from({ length: n }, (_, i) =>
    Array.from(
      { length: n + 1 },
      (_, j) =>
        design.reduce(
          (sum, x, r) => sum + (x[i] as number) * (j === n ? (targets[r] as number) : (x[j] as number)),
          0,
        ) + (i === j && i > 0 ? lambda : 0),
    ),
  );
  for (let column = 0; column < n; column++) {
    let pivot = column;
    for (let r = column + 1; r < n; r++) {
      if (Math.abs(system[r]?.[column] as number) > Math.abs(system[pivot]?.[column] as number)) pivot = r;
    }
    const lead = system[pivot] as number[];
    system[pivot] = system[column] as number[];
    system[column] = lead;
    const leadValue = lead[column] as number;
    if (Math.abs(leadValue) < 1e-12)
      throw new Error('ridgeRegression: the system is singular (raise lambda)');
    for (const [r, line] of system.entries()) {
      if (r === column) continue;
      const factor = (line[column] as number) / leadValue;
      for (let k = column; k <= n; k++) line[k] = (line[k] as number) - factor * (lead[k] as number);
    }
  }
  const solution = system.map((line, i) => (line[n] as number) / (line[i] as number));
  return { bias: solution[0] as number, weights: solution.slice(1) };
}

/**
 * The neighbourhood model of `faces` (one person may have several): weights and bias of the ridge fit,
 * and the fitted predictions' mean (`typical`) and range.
 *
 * @example
 * fitNeighbourhoodModel(tuningFaces, { neighbours: 20, lambda: 1 }).weights.length // 128
 */
export function fitNeighbourhoodModel(
  faces: readonly FittingFace[],
  options: FitOptions,
): NeighbourhoodModel {
  const means = nearestStrangerMeans(faces, options.neighbours);
  const rows: (readonly number[])[] = [];
  const targets: number[] = [];
  for (const [index, mean] of means.entries()) {
    if (mean === null) continue;
    rows.push((faces[index] as FittingFace).embedding);
    targets.push(mean);
  }
  const { bias, weights } = ridgeRegression(rows, targets, options.lambda);
  const predictions = rows.map((row) =>
    row.reduce((sum, value, i) => sum + value * (weights[i] as number), bias),
  );
  return {
    weights,
    bias,
    typical: predictions.reduce((sum, value) => sum + value, 0) / predictions.length,
    min: Math.min(...predictions),
    max: Math.max(...predictions),
  };
}

/**
 * The zone rule's two limits (docs/verification.md: match at 0.05 % of impostor pairs, mismatch with 1 % of
 * them short of it) on adjusted distances no face got from a model fitted on it: the people are split in
 * two folds, each fold's faces predicted by the model of the other, every pair of `faces` scored. Limits
 * chosen on the fitted faces' own predictions would be too generous for faces the model has not seen.
 *
 * @example
 * crossFittedZoneRule(tuningFaces, { neighbours: 20, lambda: 1 }) // { match: 0.53, mismatch: 0.62, … }
 */
export function crossFittedZoneRule(
  faces: readonly FittingFace[],
  options: FitOptions,
): { match: number; mismatch: number; genuineBeyondMatch: number; genuine: number; impostors: number } {
  const people = [...new Set(faces.map((face) => face.person))].sort();
  const foldOf = new Map(people.map((person, index) => [person, index % 2]));
  const folds = [0, 1].map((fold) => faces.filter((face) => foldOf.get(face.person) === fold));
  const models = [
    fitNeighbourhoodModel(folds[1] as FittingFace[], options),
    fitNeighbourhoodModel(folds[0] as FittingFace[], options),
  ];
  const shift = faces.map((face) => {
    const model = models[foldOf.get(face.person) as number] as NeighbourhoodModel;
    return ((predictedNeighbourDistance(face.embedding, model) as number) - model.typical) / 2;
  });
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const a = faces[i] as FittingFace;
      const b = faces[j] as FittingFace;
      const adjusted = euclidean(a.embedding, b.embedding) - (shift[i] as number) - (shift[j] as number);
      (a.person === b.person ? genuine : impostor).push(adjusted);
    }
  }
  impostor.sort((x, y) => x - y);
  const at = (fraction: number) =>
    impostor[Math.min(impostor.length - 1, Math.floor(fraction * impostor.length))] as number;
  const match = at(0.0005);
  return {
    match,
    mismatch: at(0.01),
    genuineBeyondMatch: genuine.filter((score) => score > match).length,
    genuine: genuine.length,
    impostors: impostor.length,
  };
}
