import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMrz } from '../../../server/domain/mrz.ts';
import {
  needsVisualNumber,
  numberFromVisualZone,
  type VisualWord,
} from '../../../server/runtime/node/vision/mrz-visual-zone.ts';

// The oracle for "the check digit passes" is the server's parser (the `mrz` package), not this module.

function checkOf(field: string): string {
  const value = (c: string) => (c >= '0' && c <= '9' ? +c : c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 55 : 0);
  return String([...field].reduce((sum, c, k) => sum + value(c) * [7, 3, 1][k % 3]!, 0) % 10);
}

/** A valid TD3 zone with document number `number` (9 characters). */
function passport(number: string): string[] {
  const body = `${number}${checkOf(number)}MEX0411136M2812081`.padEnd(42, '<');
  const tail = `${body}<`;
  const composite = checkOf(`${tail.slice(0, 10)}${tail.slice(13, 20)}${tail.slice(21, 43)}`);
  return ['P<MEXOBRIEN<<YUKI<CARLOS'.padEnd(44, '<'), `${tail}${composite}`];
}

/** `lines` with line 1's characters at `at` replaced, as a misreading reader would print them. */
function misread(lines: string[], at: number, characters: string): string[] {
  const line = lines[1] as string;
  return [lines[0] as string, line.slice(0, at) + characters + line.slice(at + characters.length)];
}

const word = (text: string, confidence = 0.98): VisualWord => ({
  text,
  confidences: [...text].map(() => confidence),
});

describe('the document number as the visual zone prints it', () => {
  const printed = passport('775306299');
  const read = misread(printed, 4, 'O'); // the 300 px zone's `0` read surely as `O`

  it('takes the round glyph from the visual zone when the zone read fails its check digit', () => {
    assert.equal(parseMrz(read.join('\n')).valid, false);
    const settled = numberFromVisualZone('TD3', read, [[], []], [word('OBRIEN'), word('775306299')]);
    assert.deepEqual(settled, { line: 1, text: printed[1], settled: [4] });
    assert.equal(parseMrz([read[0], settled?.text].join('\n')).valid, true);
  });

  it('joins a number Tesseract split into words', () => {
    const settled = numberFromVisualZone('TD3', read, [[], []], [word('77530'), word('6299')]);
    assert.equal(settled?.text, printed[1]);
  });

  it('is not consulted when the number verifies and nothing in it is in doubt', () => {
    assert.equal(needsVisualNumber('TD3', printed, [[], []]), false);
    assert.equal(numberFromVisualZone('TD3', printed, [[], []], [word('7753O6299')]), null);
  });

  it('is not consulted when a character other than a round glyph is in doubt', () => {
    assert.equal(needsVisualNumber('TD3', read, [[], [2]]), false);
  });

  it('settles nothing when the visual zone reads the round glyph without confidence', () => {
    assert.equal(numberFromVisualZone('TD3', read, [[], []], [word('775306299', 0.6)]), null);
  });

  it('settles nothing when the word differs anywhere but at round glyphs', () => {
    assert.equal(numberFromVisualZone('TD3', read, [[], []], [word('775306298')]), null);
    assert.equal(numberFromVisualZone('TD3', read, [[], []], [word('7753062999')]), null);
  });

  it('settles nothing when two words of the visual zone read the number differently', () => {
    assert.equal(numberFromVisualZone('TD3', read, [[], []], [word('775306299'), word('7753D6299')]), null);
  });

  it('lets the check digit judge the visual zone too: a wrong round glyph there settles nothing', () => {
    // The visual zone agrees with the zone's misreading: the field's check digit still fails.
    assert.equal(numberFromVisualZone('TD3', read, [[], []], [word('7753O6299')]), null);
    assert.equal(numberFromVisualZone('TD3', read, [[], [4]], [word('7753D6299')]), null);
  });

  it('settles a round glyph in doubt that the visual zone reads as the zone leaned', () => {
    assert.deepEqual(numberFromVisualZone('TD3', printed, [[], [4]], [word('775306299')]), {
      line: 1,
      text: printed[1],
      settled: [4],
    });
  });

  it('refuses two decided glyphs whose slips could cancel under the check digits', () => {
    // `00…` read `0D…` with the D in doubt. A visual zone reading `OO…` changes both; `O` for `0` at
    // weights 7 and 3 adds 240, so the check digits pass either way: two readings, no evidence.
    const zeros = passport('00ABC1234');
    const leaned = misread(zeros, 1, 'D');
    assert.equal(numberFromVisualZone('TD3', leaned, [[], [1]], [word('OOABC1234')]), null);
    // The same zone settled where only the glyph in doubt is decided.
    assert.equal(numberFromVisualZone('TD3', leaned, [[], [1]], [word('00ABC1234')])?.text, zeros[1]);
  });
});
