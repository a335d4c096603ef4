import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  PRINT_NOISE,
  printAgrees,
  printIsDecisive,
  printReading,
  zoneReferences,
} from '../../../server/runtime/node/vision/mrz-zone-print.ts';
import { allowedCharacters } from '../../../server/runtime/node/vision/read-mrz.ts';
import { ring } from './round-glyph-patch.ts';

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

describe('a round glyph read by the zone’s own print', () => {
  // Four sure 0s and three sure Os, as a passport's dates and names give them; no D anywhere.
  const zone = zoneReferences([
    ...[11, 12, 13, 14].map((seed) => ({ character: '0', patch: ring(4.5, seed) })),
    ...[15, 16, 17].map((seed) => ({ character: 'O', patch: ring(7, seed) })),
  ]);

  it('reads a 0 the classifier took for a D as the zone’s 0s are read, though the zone prints no D', () => {
    // A real Canadian passport's 0, read D at 0.95: as near the zone's 0s as they are to one another.
    assert.equal(printReading(ring(4.5, 18), ['D', '0'], zone), '0');
  });

  it('reads an O as an O and a 0 as a 0 when both have references', () => {
    assert.equal(printReading(ring(7, 19), ['0', 'O'], zone), 'O');
    assert.equal(printReading(ring(4.5, 19), ['O', '0'], zone), '0');
  });

  it('says nothing of a cell outside the range of the zone’s own print of it when a rival has no reference', () => {
    // Between a 0 and an O: clear of neither, and the D it might be is nowhere in the zone.
    assert.equal(printReading(ring(5.5, 20), ['D', '0'], zone), null);
    assert.equal(printReading(ring(5.5, 20), ['0', 'O'], zone), null);
  });

  it('does not judge by fewer than three sure cells, nor by the cell itself', () => {
    const few = zoneReferences([
      { character: '0', patch: ring(4.5, 21) },
      { character: '0', patch: ring(4.5, 22) },
    ]);
    assert.equal(printReading(ring(4.5, 23), ['D', '0'], few), null);
    // A cell read surely as D is the zone's only D: that is no reference against the 0 beside it.
    const misread = ring(4.5, 24);
    const withOwnD = zoneReferences([
      ...[25, 26, 27].map((seed) => ({ character: '0', patch: ring(4.5, seed) })),
      { character: 'D', patch: misread },
    ]);
    assert.equal(printReading(misread, ['D', '0'], withOwnD), '0');
    assert.equal(printReading(ring(4.5, 28), ['0'], withOwnD), null, 'one candidate: nothing to choose');
  });

  it('lets a character printed surely only once speak against a reading, never for one', () => {
    // One 0 under a glare band widens what the zone's 0s look like; the letter O of the names is the
    // zone's only sure O. An O in a document number, nearer that O, is not read as a 0.
    const glare = zoneReferences([
      ...[31, 32, 33].map((seed) => ({ character: '0', patch: ring(4.5, seed) })),
      { character: '0', patch: ring(6.6, 34) },
      { character: 'O', patch: ring(7, 35) },
    ]);
    assert.equal(printReading(ring(6.8, 36), ['O', '0'], glare), null);
    assert.equal(printReading(ring(4.5, 37), ['O', '0'], glare), '0');
  });
});

describe('a clean print, and a decisive reading', () => {
  const squared = (a: Float32Array, b: Float32Array) =>
    a.reduce((sum, v, i) => sum + (v - (b[i] as number)) ** 2, 0);

  it('reads a cell as the zone’s 0s when they agree more closely than two samplings of one glyph can', () => {
    // A generated zone under motion blur: three 0s all but identical (a spread far under PRINT_NOISE),
    // no O anywhere; the cell is a 0 sampled a little differently, still within the noise of one print.
    const clean = zoneReferences(
      [41, 42, 43].map((seed) => ({ character: '0', patch: ring(4.5, seed, 0.01) })),
    );
    const cell = ring(4.5, 44, 0.04);
    const mean = ring(4.5, 0, 0);
    assert.ok(squared(cell, mean) < PRINT_NOISE, 'the cell lies within the noise of one print');
    assert.equal(printReading(cell, ['O', '0'], clean), '0');
    // An O is far outside it, and is not read as the zone's 0.
    assert.equal(printReading(ring(7, 45, 0.01), ['0', 'O'], clean), null);
  });

  it('is decisive when the cell is four times nearer the reading than every other candidate', () => {
    const zone = zoneReferences([
      ...[51, 52, 53].map((seed) => ({ character: '0', patch: ring(4.5, seed, 0.02) })),
      { character: 'O', patch: ring(7, 54, 0.02) },
    ]);
    assert.equal(printIsDecisive(ring(4.5, 55, 0.02), '0', ['O', '0'], zone), true);
    // Between the two: the print may read it, but not decisively.
    assert.equal(printIsDecisive(ring(5.2, 56, 0.02), '0', ['O', '0'], zone), false);
    // A candidate the zone never prints surely cannot be measured: never decisive.
    assert.equal(printIsDecisive(ring(4.5, 57, 0.02), '0', ['D', '0'], zone), false);
    assert.equal(printIsDecisive(ring(4.5, 58, 0.02), '0', ['0'], zone), false, 'nothing to choose between');
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

  it('is F, M, < or X where the sex stands', () => {
    assert.equal(allowedCharacters('TD1', 1, 7), 'FMX<');
    assert.equal(allowedCharacters('TD2', 1, 20), 'FMX<');
    assert.equal(allowedCharacters('TD3', 1, 20), 'FMX<');
  });
});
