import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CELL_HEIGHT, CELL_WIDTH } from '../../../server/runtime/node/vision/mrz-cells.ts';
import { numberByZonePrint } from '../../../server/runtime/node/vision/mrz-number-by-print.ts';
import { ring } from './round-glyph-patch.ts';

/** A cell as the reader gives it: its centred patch, and whether it was read surely. */
interface PrintCell {
  patch: Float32Array;
  sure: boolean;
}
const isSure = (cell: PrintCell) => cell.sure;

// ICAO 9303's specimen passport: the number L898902C3 (check digit 6) has one round glyph, its `0` at 5.
// Outside the number the zone prints `0`s surely in the dates (15, 23) and the composite digit (43), and
// `O`s in `UTO` twice and in `ERIKSSON`.
const NAMES = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const PRINTED = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';
const withNumberAt5 = (character: string, check = '6') =>
  `${PRINTED.slice(0, 5)}${character}${PRINTED.slice(6, 9)}${check}${PRINTED.slice(10)}`;

/** A narrow oval like OCR-B's `0`, a wide one like its `O`; every other character an empty patch. */
const ZERO = 4.5;
const LETTER_O = 7;

/**
 * The cells of a zone printed as `printed`, every one read surely; the number's `0` at 5 printed with
 * half-width `numberZero` (a `0`, or an `O` when it is {@link LETTER_O}).
 */
function cellsOf(printed: readonly string[], numberZero = ZERO): PrintCell[][] {
  let seed = 100;
  return printed.map((line, index) =>
    [...line].map((character, k) => {
      seed++;
      if (index === 1 && k === 5) return { patch: ring(numberZero, seed), sure: true };
      if (character === '0') return { patch: ring(ZERO, seed), sure: true };
      if (character === 'O') return { patch: ring(LETTER_O, seed), sure: true };
      return { patch: new Float32Array(CELL_WIDTH * CELL_HEIGHT), sure: true };
    }),
  );
}

describe('the document number read again by the zone’s own print when it fails its check digit', () => {
  it('reads a 0 the classifier was sure is an O as the zone’s 0s are printed, and the digit passes', () => {
    const lines = [NAMES, withNumberAt5('O')];
    const byPrint = numberByZonePrint('TD3', lines, [[], []], cellsOf([NAMES, PRINTED]), isSure);
    assert.deepEqual(byPrint, { line: 1, text: PRINTED, changed: [5] });
  });

  it('leaves a number that passes its check digit as read, whatever the print says of it', () => {
    // Printed `0` read `0`, but the cell looks like the zone's Os: the digit passes, nothing is asked.
    const cells = cellsOf([NAMES, PRINTED], LETTER_O);
    assert.equal(numberByZonePrint('TD3', [NAMES, PRINTED], [[], []], cells, isSure), null);
  });

  it('changes nothing when the print agrees with the classifier', () => {
    const cells = cellsOf([NAMES, PRINTED], LETTER_O);
    assert.equal(numberByZonePrint('TD3', [NAMES, withNumberAt5('O')], [[], []], cells, isSure), null);
  });

  it('proposes one reading and leaves the number unread when the check digit refuses it', () => {
    // The check digit read 7: neither O nor 0 passes, so the print's 0 is no reading.
    const lines = [NAMES, withNumberAt5('O', '7')];
    assert.equal(numberByZonePrint('TD3', lines, [[], []], cellsOf([NAMES, PRINTED]), isSure), null);
  });

  it('asks nothing when another character of the number, or its check digit, is in doubt', () => {
    const lines = [NAMES, withNumberAt5('O')];
    const cells = cellsOf([NAMES, PRINTED]);
    assert.equal(numberByZonePrint('TD3', lines, [[], [7]], cells, isSure), null, 'the C in doubt');
    assert.equal(numberByZonePrint('TD3', lines, [[], [9]], cells, isSure), null, 'the check digit in doubt');
  });

  it('reads nothing when the zone prints no 0 surely outside the number', () => {
    // The zone's other 0s are read short of sure: no reference to read the number's cell by.
    const lines = [NAMES, withNumberAt5('O')];
    const cells = cellsOf([NAMES, PRINTED]).map((line, index) =>
      line.map((cell, k) => (index === 1 && k !== 5 && PRINTED[k] === '0' ? { ...cell, sure: false } : cell)),
    );
    assert.equal(numberByZonePrint('TD3', lines, [[], []], cells, isSure), null);
  });
});
