import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CELL_HEIGHT, CELL_WIDTH } from '../../../server/runtime/node/vision/mrz-cells.ts';
import { nearerRound, roundReferences } from '../../../server/runtime/node/vision/mrz-round-prototypes.ts';
import { allowedCharacters } from '../../../server/runtime/node/vision/read-mrz.ts';

/**
 * A round glyph as a cell patch: an ink ring of half-width `rx` (cells are 16 px wide), with a little
 * noise so no two are the same. OCR-B's `0` is a narrow oval, its `O` a wide one.
 */
function ring(rx: number, seed: number): Float32Array {
  const patch = new Float32Array(CELL_WIDTH * CELL_HEIGHT);
  let state = seed;
  const noise = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state / 2147483648 - 0.5) * 0.2;
  };
  const ry = 9;
  for (let y = 0; y < CELL_HEIGHT; y++) {
    for (let x = 0; x < CELL_WIDTH; x++) {
      const r = Math.hypot((x + 0.5 - CELL_WIDTH / 2) / rx, (y + 0.5 - CELL_HEIGHT / 2) / ry);
      const ink = Math.abs(r - 1) < 0.22 ? 1 : 0;
      patch[y * CELL_WIDTH + x] = Math.min(1, Math.max(0, ink + noise()));
    }
  }
  return patch;
}

const zeros = [ring(4.5, 1), ring(4.5, 2), ring(4.5, 3)];
const ohs = [ring(7, 4), ring(7, 5)];

describe('a doubtful 0 or O judged by the zone’s own print', () => {
  it('finds a glyph printed like the zone’s 0s to be a 0, and one printed like its Os to be an O', () => {
    const references = roundReferences(zeros, ohs);
    assert.ok(references);
    assert.equal(nearerRound(ring(4.5, 9), references), '0');
    assert.equal(nearerRound(ring(7, 9), references), 'O');
  });

  it('says nothing of a glyph between the two: it stays doubtful', () => {
    const references = roundReferences(zeros, ohs);
    assert.ok(references);
    assert.equal(nearerRound(ring(5.5, 9), references), null);
  });

  it('needs two sure 0s and one sure O in the zone before it judges at all', () => {
    assert.equal(roundReferences(zeros.slice(0, 1), ohs), null);
    assert.equal(roundReferences(zeros, []), null);
  });
});

describe('what the document code’s first character may be', () => {
  it('is A, C or I on cards (TD1, TD2): a worn I is never read as a T', () => {
    assert.equal(allowedCharacters('TD1', 0, 0), 'ACI');
    assert.equal(allowedCharacters('TD2', 0, 0), 'ACI');
  });

  it('is P or V on a 44-character zone: a visa is read as a visa, never taken for a passport', () => {
    assert.equal(allowedCharacters('TD3', 0, 0), 'PV');
  });

  it('leaves the rest of the layout as ICAO 9303 prints it', () => {
    assert.equal(allowedCharacters('TD3', 0, 1), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ<');
    assert.equal(allowedCharacters('TD3', 1, 9), '0123456789<');
    assert.equal(allowedCharacters('TD1', 0, 5).length, 37);
  });
});
