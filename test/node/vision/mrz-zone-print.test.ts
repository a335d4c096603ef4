import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CELL_HEIGHT, CELL_WIDTH } from '../../../server/runtime/node/vision/mrz-cells.ts';
import { printAgrees, zoneReferences } from '../../../server/runtime/node/vision/mrz-zone-print.ts';
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

/** The zone's sure cells: three 0s (in dates), two Os (in names), fillers that never count. */
const references = zoneReferences([
  { character: '0', patch: ring(4.5, 1) },
  { character: '0', patch: ring(4.5, 2) },
  { character: '0', patch: ring(4.5, 3) },
  { character: 'O', patch: ring(7, 4) },
  { character: 'O', patch: ring(7, 5) },
  { character: '<', patch: ring(6, 6) },
]);

describe('a doubtful character judged by the zone’s own print', () => {
  it('agrees with a 0 printed like the zone’s 0s, and with an O printed like its Os', () => {
    assert.equal(printAgrees(ring(4.5, 9), '0', ['O'], references), true);
    assert.equal(printAgrees(ring(7, 9), 'O', ['0'], references), true);
  });

  it('never agrees with the classifier against the print: an O read as 0 stays doubtful', () => {
    assert.equal(printAgrees(ring(7, 9), '0', ['O'], references), false);
    assert.equal(printAgrees(ring(4.5, 9), 'O', ['0'], references), false);
  });

  it('says nothing of a cell between the two: it stays doubtful', () => {
    assert.equal(printAgrees(ring(5.5, 9), '0', ['O'], references), false);
    assert.equal(printAgrees(ring(5.5, 9), 'O', ['0'], references), false);
  });

  it('needs a reference for the character read and for every rival, and at least one rival', () => {
    assert.equal(printAgrees(ring(4.5, 9), '0', ['O', 'D'], references), false, 'no D in the zone');
    assert.equal(printAgrees(ring(4.5, 9), 'Q', ['O'], references), false, 'no Q in the zone');
    assert.equal(printAgrees(ring(4.5, 9), '0', [], references), false);
    assert.equal(references.has('<'), false, 'fillers are no reference');
  });
});

describe('what the document code’s first character may be', () => {
  it('is A, C or I on a TD1 card: a worn I is never read as a T', () => {
    assert.equal(allowedCharacters('TD1', 0, 0), 'ACI');
  });

  it('is A, C, I or V on a 36-character zone: an MRV-B visa is read as a visa, never taken for a card', () => {
    // A Polish MRV-B specimen's V, with V not allowed here, was read C with confidence by a classifier
    // tried on 2026-11-29, and its zone was presented as an ID card's (docs/verification.md).
    assert.equal(allowedCharacters('TD2', 0, 0), 'ACIV');
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
