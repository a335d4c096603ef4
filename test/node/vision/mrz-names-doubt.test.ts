import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  lettersAfterNamesPadding,
  MIN_NAME_CONFIDENCE_OVER_SECOND_READ,
  namesContestedBySecondRead,
} from '../../../server/runtime/node/vision/read-mrz.ts';

// A TD3 names line: `P<` and the issuing state (positions 0 to 4), then the names from position 5.
const LINE = 'P<ISLOESP<<ANNA';
const sure = (overrides: Record<number, number> = {}) => [...LINE].map((_, k) => overrides[k] ?? 1);

describe('names letters the second reader reads otherwise', () => {
  it('leaves a letter the classifier is all but certain of as read', () => {
    // A real Icelandic passport: the classifier reads `O` at 0.999, Tesseract `Q`.
    const other = new Map([[5, 'Q']]);
    assert.deepEqual(namesContestedBySecondRead('TD3', 0, LINE, sure({ 5: 0.999 }), other), []);
  });

  it('makes a letter read short of that share doubtful', () => {
    const other = new Map([
      [5, 'Q'],
      [7, 'F'],
    ]);
    const shares = sure({ 5: MIN_NAME_CONFIDENCE_OVER_SECOND_READ - 0.001, 7: 0.984 });
    assert.deepEqual(namesContestedBySecondRead('TD3', 0, LINE, shares, other), [5, 7]);
  });

  it('ignores agreement, and positions outside the names', () => {
    // Position 2 is the issuing state (check digits and the code list judge it); 11 is read the same.
    const other = new Map([
      [2, 'L'],
      [11, 'A'],
    ]);
    assert.deepEqual(namesContestedBySecondRead('TD3', 0, LINE, sure({ 2: 0.5, 11: 0.5 }), other), []);
  });

  it('reads TD1 names on the third line only', () => {
    const other = new Map([[3, 'Q']]);
    const shares = [0.9, 0.9, 0.9, 0.9];
    assert.deepEqual(namesContestedBySecondRead('TD1', 2, 'ANNO', shares, other), [3]);
    assert.deepEqual(namesContestedBySecondRead('TD1', 0, 'ANNO', shares, other), []);
  });
});

describe('letters after the names padding', () => {
  it('finds a letter after three fillers in a row, in the names only', () => {
    // A real US passport: a chevron of the padding, under a glare spot, read `G`.
    assert.deepEqual(lettersAfterNamesPadding('TD3', 0, 'P<USATRAVELER<<MR<<<<<G<<'), [22]);
    assert.deepEqual(lettersAfterNamesPadding('TD1', 2, 'ERIKSSON<<ANNA<<<M<<'), [17]);
    // Outside the names (TD1's first line) the same run means nothing here.
    assert.deepEqual(lettersAfterNamesPadding('TD1', 0, 'IDUTO<<<A<<'), []);
  });

  it('accepts the separators ICAO 9303 prints between names', () => {
    assert.deepEqual(lettersAfterNamesPadding('TD3', 0, 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<'), []);
    assert.deepEqual(lettersAfterNamesPadding('TD2', 0, 'I<UTOSMITH<<JOHN<<<<'), []);
  });
});
