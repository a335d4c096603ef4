import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMrz } from '../../../server/domain/mrz.ts';
import { failingCheckDigits } from '../../../server/runtime/node/vision/mrz-round-slips.ts';
import {
  linesWithNumbersFailingDigits,
  numberBySecondRead,
} from '../../../server/runtime/node/vision/mrz-number-by-second-read.ts';

// The oracle for "the zone verifies" is the server's parser (the `mrz` package), not this module.

function checkOf(field: string): string {
  const value = (c: string) => (c >= '0' && c <= '9' ? +c : c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 55 : 0);
  return String([...field].reduce((sum, c, k) => sum + value(c) * [7, 3, 1][k % 3]!, 0) % 10);
}

/** A valid TD3 zone with document number `number` (9 characters) and personal number `personal`. */
function passport(number: string, personal = ''): string[] {
  const optional = personal.padEnd(14, '<');
  const body = `${number}${checkOf(number)}CAN5510171F3511015${optional}${personal ? checkOf(optional) : '<'}`;
  const composite = checkOf(`${body.slice(0, 10)}${body.slice(13, 20)}${body.slice(21, 43)}`);
  return ['P<CANGARCIA<<KENJI<BEATRIZ'.padEnd(44, '<'), `${body}${composite}`];
}

/** `lines` with line 1's characters at `at` replaced, as a misreading reader would print them. */
function misread(lines: string[], at: number, characters: string): string[] {
  const line = lines[1] as string;
  return [lines[0] as string, line.slice(0, at) + characters + line.slice(at + characters.length)];
}

const secondReading = (entries: [number, string][]) => [undefined, new Map(entries)];

/** What the rule makes of passport lines `read`, nothing in doubt, the second reader reading `entries`. */
const rereadWith = (read: string[], ...entries: [number, string][]) =>
  numberBySecondRead('TD3', read, [[], []], secondReading(entries));

describe("a checked number's round glyphs as the second reader reads them", () => {
  it("takes the second reader's 0 where the classifier's O fails the check digit", () => {
    // seed 9 at 300 px: `29385208` read `293852O8` surely; the second reader read a 0 there.
    const printed = passport('29385208<');
    const read = misread(printed, 6, 'O');
    assert.equal(parseMrz(read.join('\n')).valid, false);
    assert.deepEqual(linesWithNumbersFailingDigits('TD3', read, [[], []]), [1]);
    const reread = numberBySecondRead('TD3', read, [[], []], secondReading([[6, '0']]));
    assert.deepEqual(reread, { lines: printed, changed: [[], [6]] });
    assert.equal(parseMrz(reread?.lines.join('\n') ?? '').valid, true);
  });

  it('reads a passport personal number the same way', () => {
    const printed = passport('AB1234567', '5340626');
    const read = misread(printed, 31, 'O');
    const reread = numberBySecondRead('TD3', read, [[], []], secondReading([[31, '0']]));
    assert.deepEqual(reread?.changed, [[], [31]]);
    assert.equal(parseMrz(reread?.lines.join('\n') ?? '').valid, true);
  });

  it('proposes nothing where the number passes its check digit', () => {
    const printed = passport('29385208<');
    assert.deepEqual(linesWithNumbersFailingDigits('TD3', printed, [[], []]), []);
    assert.equal(numberBySecondRead('TD3', printed, [[], []], secondReading([[6, 'O']])), null);
  });

  it('refuses a proposal that cancels a round slip it agreed with', () => {
    // seed 12 at 300 px: `UXJO0X0IR` read `UXJOOX0IR` (the first 0 read O surely); the second reader also
    // read that one O, and the next 0 as O: 24·3 + 24·7 = 240 would pass the digit with both wrong.
    const printed = passport('UXJO0X0IR');
    const read = misread(printed, 4, 'O');
    const proposal = misread(read, 6, 'O');
    assert.equal(parseMrz(proposal.join('\n')).valid, true, 'the two slips cancel under every check digit');
    assert.equal(rereadWith(read, [4, 'O'], [6, 'O']), null);
  });

  it('refuses a proposal where the second reader reads another character of the field otherwise', () => {
    // `29385208` with its 8 read surely as 4: the second reader's O for the 0 would pass the digit
    // (−4·7 + 24·7 = 140), but it read that 8 as an 8.
    const read = misread(passport('29385208<'), 3, '4');
    const proposal = misread(read, 6, 'O');
    assert.equal(parseMrz(proposal.join('\n')).valid, true, 'the two slips cancel');
    assert.equal(rereadWith(read, [3, '8'], [6, 'O']), null);
  });

  it('leaves the number alone when the proposal fails the check digit', () => {
    const read = misread(misread(passport('29385208<'), 6, 'O'), 2, '5'); // a 3 read surely as 5
    assert.equal(numberBySecondRead('TD3', read, [[], []], secondReading([[6, '0']])), null);
  });

  it('lets the second reader confuse round glyphs in the check digit, as it does everywhere', () => {
    // A real French card: `K682T8YLO` read `K682T8YL0`, the second reader's `O` there and `D` for the check 0.
    const card = [
      'IRFRAK682T8YLO0<1105040043<<<<',
      '7906123F1401073SEN<<<<<<<<<<<6',
      'MARTIN<<CHRISTELLE<HELENE<LAUR',
    ];
    const read = [`${card[0]!.slice(0, 13)}0${card[0]!.slice(14)}`, card[1]!, card[2]!];
    const reread = numberBySecondRead(
      'TD1',
      read,
      [[], [], []],
      [
        new Map([
          [13, 'O'],
          [14, 'D'],
        ]),
      ],
    );
    assert.deepEqual(reread, { lines: card, changed: [[13], [], []] });
  });

  it('is not asked when a character other than a round glyph is in doubt, or the check digit is', () => {
    const read = misread(passport('29385208<'), 6, 'O');
    assert.deepEqual(linesWithNumbersFailingDigits('TD3', read, [[], [2]]), []);
    assert.deepEqual(linesWithNumbersFailingDigits('TD3', read, [[], [9]]), []);
    assert.equal(numberBySecondRead('TD3', read, [[], [2]], secondReading([[6, '0']])), null);
  });

  it('takes only round glyphs from the second reader, and changes nothing it did not read', () => {
    const read = misread(passport('29385208<'), 6, 'O');
    assert.equal(numberBySecondRead('TD3', read, [[], []], secondReading([[6, 'C']])), null);
    assert.equal(numberBySecondRead('TD3', read, [[], []], [undefined, undefined]), null);
  });

  describe("a card's optional data, which only the composite digit covers", () => {
    // seed 8 at 300 px (`mrz_300px/td2-02`): the optional data `9840503` read `984O5O3`, both `0`s surely
    // `O`; every other digit passed and the composite failed.
    const printed = ['IRUSAKORHONEN<<JOAO<ANNA<<<<<<<<<<<<', '1369702594USA7405154F290304698405033'];
    const read = [printed[0]!, '1369702594USA7405154F2903046984O5O33'];
    /** The rule on card lines `lines`, with `uncertain`, the second reader reading both 0s as 0. */
    const zerosRead = (lines: string[], uncertain: number[][]) =>
      numberBySecondRead(
        'TD2',
        lines,
        uncertain,
        secondReading([
          [31, '0'],
          [33, '0'],
        ]),
      );

    it("takes the second reader's round glyphs there when the composite alone fails", () => {
      assert.equal(parseMrz(printed.join('\n')).valid, true);
      assert.deepEqual(failingCheckDigits('TD2', read), [[1, 35]]);
      assert.deepEqual(linesWithNumbersFailingDigits('TD2', read, [[], []]), [1]);
      const reread = zerosRead(read, [[], []]);
      assert.deepEqual(reread, { lines: printed, changed: [[], [31, 33]] });
    });

    it('is left alone when another check digit fails too, or something else under the composite is in doubt', () => {
      const dateWrong = [read[0]!, `${read[1]!.slice(0, 14)}5${read[1]!.slice(15)}`];
      assert.deepEqual(linesWithNumbersFailingDigits('TD2', dateWrong, [[], []]), []);
      assert.equal(zerosRead(dateWrong, [[], []]), null);
      assert.equal(zerosRead(read, [[], [15]]), null);
      assert.equal(zerosRead(read, [[], [35]]), null);
    });

    it('is left alone when the second reader reads another character of the optional data otherwise', () => {
      const other = secondReading([
        [28, '8'],
        [31, '0'],
        [33, '0'],
      ]);
      assert.equal(numberBySecondRead('TD2', read, [[], []], other), null);
    });
  });
});
