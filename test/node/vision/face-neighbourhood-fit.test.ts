import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  crossFittedZoneRule,
  type FittingFace,
  fitNeighbourhoodModel,
  nearestStrangerMeans,
  ridgeRegression,
} from '../../../bench/accuracy/face-neighbourhood-fit.ts';

/** A deterministic pseudo-random sequence (xorshift), so the synthetic set is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) % 1_000_000) / 1_000_000;
  };
}

describe('face neighbourhood fit (bench/accuracy/face-neighbourhood-fit.ts)', () => {
  it('takes each face’s mean distance to its nearest faces of other people only', () => {
    const faces: FittingFace[] = [
      { person: 'a', embedding: [0] },
      { person: 'a', embedding: [0.1] },
      { person: 'b', embedding: [1] },
      { person: 'c', embedding: [3] },
    ];
    const means = nearestStrangerMeans(faces, 2).map((mean) =>
      mean === null ? null : Number(mean.toFixed(6)),
    );
    // a/0: b at 1, c at 3 (its own 0.1 is not a stranger); b: a/0.1 at 0.9, a/0 at 1.
    assert.deepEqual(means, [2, 1.9, 0.95, 2.45]);
    assert.deepEqual(nearestStrangerMeans([{ person: 'a', embedding: [0] }], 2), [null]);
  });

  it('solves least squares with an intercept, and shrinks the weights with a ridge penalty', () => {
    const rows = [
      [0, 1],
      [1, 0],
      [2, 1],
      [3, 3],
      [1, 2],
    ];
    const targets = rows.map(([x, y]) => 0.5 + 2 * (x as number) - (y as number));
    const exact = ridgeRegression(rows, targets, 0);
    assert.ok(Math.abs(exact.bias - 0.5) < 1e-9);
    assert.ok(
      Math.abs((exact.weights[0] as number) - 2) < 1e-9 && Math.abs((exact.weights[1] as number) + 1) < 1e-9,
    );
    const shrunk = ridgeRegression(rows, targets, 10);
    assert.ok(Math.abs(shrunk.weights[0] as number) < 2);
    assert.throws(
      () =>
        ridgeRegression(
          [
            [1, 1],
            [2, 2],
          ],
          [1, 2],
          0,
        ),
      /singular/,
    );
    assert.throws(() => ridgeRegression([[1], [2, 3]], [1, 2], 1), /row 1/);
  });

  it('learns where strangers crowd: a model fitted on one set predicts the neighbourhood of another', () => {
    // People spread along the first axis; along it they crowd more and more, so strangers come closer to a
    // face the larger its first number is.
    const next = random(7);
    const people = (from: number, count: number): FittingFace[] =>
      Array.from({ length: count }, (_, p) => {
        const x = next();
        const spread = 0.1 + 3 * (1 - x);
        const centre = [x, spread * (next() - 0.5), spread * (next() - 0.5)];
        return [0, 1].map((shot) => ({
          person: `p${from + p}`,
          embedding: centre.map((value, axis) => value + (axis === 0 ? 0 : 0.02 * (shot - 0.5))),
        }));
      }).flat();
    const tuning = people(0, 150);
    const model = fitNeighbourhoodModel(tuning, { neighbours: 5, lambda: 0.01 });
    assert.ok((model.weights[0] as number) < 0, 'a larger first number predicts closer strangers');
    assert.ok(model.min < model.typical && model.typical < model.max);

    const report = people(1000, 150);
    const truth = nearestStrangerMeans(report, 5) as number[];
    const predicted = report.map((face) =>
      face.embedding.reduce((sum, value, i) => sum + value * (model.weights[i] as number), model.bias),
    );
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const [mt, mp] = [mean(truth), mean(predicted)];
    const covariance = mean(truth.map((t, i) => (t - mt) * ((predicted[i] as number) - mp)));
    const spread = (values: number[], m: number) => Math.sqrt(mean(values.map((v) => (v - m) ** 2)));
    assert.ok(
      covariance / (spread(truth, mt) * spread(predicted, mp)) > 0.65,
      'predictions follow the truth',
    );
  });

  it('chooses the zone rule on predictions no face was fitted on', () => {
    const next = random(11);
    const faces: FittingFace[] = Array.from({ length: 80 }, (_, p) => {
      const centre = Array.from({ length: 4 }, () => next());
      return [0, 1].map(() => ({ person: `p${p}`, embedding: centre.map((value) => value + 0.05 * next()) }));
    }).flat();
    const rule = crossFittedZoneRule(faces, { neighbours: 5, lambda: 0.1 });
    assert.equal(rule.genuine, 80);
    assert.equal(rule.impostors, (160 * 159) / 2 - 80);
    assert.ok(rule.match < rule.mismatch);
    assert.ok(rule.genuineBeyondMatch >= 0 && rule.genuineBeyondMatch <= rule.genuine);
  });
});
