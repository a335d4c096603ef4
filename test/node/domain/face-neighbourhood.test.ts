import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adjustedDistance, predictedNeighbourDistance } from '../../../server/domain/face-neighbourhood.ts';
import type { EmbeddingSpace, NeighbourhoodModel } from '../../../server/features/vision/vision-engine.ts';

// Predicts 0.6 + 0.1·x₀ on two-number embeddings, fitted over predictions 0.55–0.7 with 0.62 typical.
const MODEL: NeighbourhoodModel = { weights: [0.1, 0], bias: 0.6, typical: 0.62, min: 0.55, max: 0.7 };
const SPACE: EmbeddingSpace = { name: 'x', metric: 'euclidean', threshold: 0.6, neighbourhood: MODEL };

describe('face neighbourhood model', () => {
  it('predicts linearly from the embedding, within the fitted range', () => {
    assert.ok(Math.abs((predictedNeighbourDistance([0.5, 9], MODEL) as number) - 0.65) < 1e-12);
    assert.equal(predictedNeighbourDistance([3, 0], MODEL), 0.7); // 0.9 brought down to the range
    assert.equal(predictedNeighbourDistance([-2, 0], MODEL), 0.55); // 0.4 brought up to it
  });

  it('refuses an embedding of another length than the model', () => {
    assert.equal(predictedNeighbourDistance([0.5], MODEL), null);
    assert.equal(adjustedDistance(0.5, [0.5], [0.5, 0], SPACE), null);
  });

  it('moves a distance by how far both faces are from a typical face', () => {
    // Both faces in a crowded neighbourhood (strangers come as close as 0.55): the distance grows.
    const crowded = adjustedDistance(0.5, [-0.5, 0], [-0.5, 0], SPACE) as number;
    assert.ok(Math.abs(crowded - (0.5 - 0.55 + 0.62)) < 1e-12);
    // Both sparse (0.7): it shrinks; one of each: the two shifts add up.
    assert.ok(Math.abs((adjustedDistance(0.5, [1, 0], [1, 0], SPACE) as number) - 0.42) < 1e-12);
    assert.ok(Math.abs((adjustedDistance(0.5, [1, 0], [-0.5, 0], SPACE) as number) - 0.495) < 1e-12);
    // Two typical faces keep their distance.
    assert.ok(Math.abs((adjustedDistance(0.5, [0.2, 0], [0.2, 0], SPACE) as number) - 0.5) < 1e-12);
  });

  it('leaves the distance alone without a model, and under a cosine metric', () => {
    const { neighbourhood: _none, ...plain } = SPACE;
    assert.equal(adjustedDistance(0.5, [1, 0], [1, 0], plain), 0.5);
    assert.equal(adjustedDistance(0.9, [1, 0], [1, 0], { ...SPACE, metric: 'cosine' }), 0.9);
  });
});
