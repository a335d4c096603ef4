import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareEmbeddings } from '../../../server/domain/face-embedding.ts';
import { COSINE_SPACE, DLIB_SPACE, PERSON_A, PERSON_A_TURNED, PERSON_B } from './vision-fixtures.ts';

describe('face embeddings', () => {
  it('measures euclidean distance and applies the space threshold inclusively', () => {
    const same = compareEmbeddings(PERSON_A, PERSON_A_TURNED, DLIB_SPACE);
    assert.ok(same !== null && Math.abs(same.score - Math.hypot(0.2, 0.2)) < 1e-9);
    assert.equal(same?.samePerson, true);
    assert.equal(compareEmbeddings(PERSON_A, PERSON_B, DLIB_SPACE)?.samePerson, false);
    assert.equal(compareEmbeddings([0], [0.6], DLIB_SPACE)?.samePerson, true);
  });

  it('measures cosine similarity and applies the space threshold inclusively', () => {
    assert.equal(compareEmbeddings([1, 0], [1, 0], COSINE_SPACE)?.score, 1);
    assert.equal(compareEmbeddings([1, 0], [0, 1], COSINE_SPACE)?.samePerson, false);
    assert.equal(compareEmbeddings([1, 0], [0.5, Math.sqrt(3) / 2], COSINE_SPACE)?.samePerson, true);
  });

  it('refuses to compare what cannot be compared', () => {
    assert.equal(compareEmbeddings([1, 2], [1, 2, 3], DLIB_SPACE), null);
    assert.equal(compareEmbeddings([], [], DLIB_SPACE), null);
    assert.equal(compareEmbeddings([Number.NaN, 1], [1, 1], DLIB_SPACE), null);
    assert.equal(compareEmbeddings([0, 0], [1, 1], COSINE_SPACE), null);
  });
});
