import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CELL_HEIGHT, CELL_WIDTH } from '../../../server/runtime/node/vision/mrz-cells.ts';
import { numberByZonePrint } from '../../../server/runtime/node/vision/mrz-number-by-print.ts';
import { checkDigitOf } from '../../../server/runtime/node/vision/mrz-round-slips.ts';
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
    assert.deepEqual(byPrint, { lines: [NAMES, PRINTED], changed: [[], [5]] });
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

  describe('a passport’s personal number, which has a check digit of its own', () => {
    // The specimen's personal number ZE184226B<<<<< made to print a 0 at 34 (ZE184206B), its check digit
    // (42) and the composite (43) computed for it.
    const personal = 'ZE184206B<<<<<';
    const upToPersonal = PRINTED.slice(0, 28);
    const check = checkDigitOf(personal);
    const composite = checkDigitOf(
      `${upToPersonal.slice(0, 10)}${upToPersonal.slice(13, 20)}${upToPersonal.slice(21)}${personal}${check}`,
    );
    const printed = `${upToPersonal}${personal}${check}${composite}`;
    /** Every 0 of the zone printed as a narrow ring and read surely; `as` gives some cells another look. */
    const zoneCells = (as: ReadonlyMap<number, number> = new Map()) =>
      [NAMES, printed].map((line, index) =>
        [...line].map((character, k) => {
          const rx = index === 1 ? as.get(k) : undefined;
          if (rx !== undefined) return { patch: ring(rx, 500 + k), sure: true };
          if (character === '0') return { patch: ring(ZERO, 300 + 50 * index + k), sure: true };
          if (character === 'O') return { patch: ring(LETTER_O, 300 + 50 * index + k), sure: true };
          return { patch: new Float32Array(CELL_WIDTH * CELL_HEIGHT), sure: true };
        }),
      );
    const readAsO = (at: readonly number[]) =>
      [...printed].map((character, k) => (at.includes(k) ? 'O' : character)).join('');

    it('reads its 0 read as O as the zone’s 0s are printed, when the field fails its digit', () => {
      const byPrint = numberByZonePrint('TD3', [NAMES, readAsO([34])], [[], []], zoneCells(), isSure);
      assert.deepEqual(byPrint, { lines: [NAMES, printed], changed: [[], [34]] });
    });

    it('does not let the field’s own cells vouch for each other', () => {
      // Two 0s of the personal number read O, the zone's other 0s read short of sure: the number's Os
      // would be each other's only references.
      const personalTwice = `${upToPersonal}ZE100206B<<<<<${checkDigitOf('ZE100206B<<<<<')}0`;
      const read = [...personalTwice]
        .map((character, k) => (k === 31 || k === 33 ? 'O' : character))
        .join('');
      const cells = [NAMES, personalTwice].map((line, index) =>
        [...line].map((character, k) => ({
          patch: character === '0' ? ring(ZERO, 700 + k) : new Float32Array(CELL_WIDTH * CELL_HEIGHT),
          sure: index === 1 && (k === 31 || k === 33),
        })),
      );
      assert.equal(numberByZonePrint('TD3', [NAMES, read], [[], []], cells, isSure), null);
    });

    it('reads the document number and the personal number in one zone, each judged by its own digit', () => {
      const lines = [NAMES, readAsO([5, 34])];
      const byPrint = numberByZonePrint('TD3', lines, [[], []], zoneCells(), isSure);
      assert.deepEqual(byPrint, { lines: [NAMES, printed], changed: [[], [5, 34]] });
    });

    it('leaves a card’s optional data alone: only the composite digit judges it', () => {
      // TD1: the first line's optional data (15–29) holds a 0 read O; the number passes its digit.
      const [first, second, names] = [
        'I<UTOD231458907<<<<<<<<<<<<<<<',
        '7408122F1204159UTO<<<<<<<<<<<6',
        'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
      ] as const;
      const td1 = [first, second, names];
      const read = [`${first.slice(0, 20)}O${first.slice(21)}`, second, names];
      const cells = td1.map((line) =>
        [...line].map((character, k) => ({
          patch:
            character === '0' || k === 20 ? ring(ZERO, 900 + k) : new Float32Array(CELL_WIDTH * CELL_HEIGHT),
          sure: true,
        })),
      );
      assert.equal(numberByZonePrint('TD1', read, [[], [], []], cells, isSure), null);
    });
  });
});
