import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMrz } from '../../../server/domain/mrz.ts';
import { checkDigitOf, roundSlipsCouldCancel } from '../../../server/runtime/node/vision/mrz-round-slips.ts';

// The oracle is the server's parser (the `mrz` package's check digits), not this module's arithmetic: for
// every set of round glyphs in a line, "could slips there cancel?" must equal "does some other choice of
// round glyphs there pass every check digit the zone has?".

const ROUND = ['0', 'O', 'D', 'Q'];

/** ICAO 9303 check digit, only to build valid zones for the test (the parser judges them). */
function check(field: string): string {
  const value = (c: string) => (c >= '0' && c <= '9' ? +c : c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 55 : 0);
  return String([...field].reduce((sum, c, k) => sum + value(c) * [7, 3, 1][k % 3]!, 0) % 10);
}

function td3(number: string, personal: string): string[] {
  const line1 = 'P<UTOERIKSSON<<ANNA<MARIA'.padEnd(44, '<');
  const head = `${number}${check(number)}UTO7408122F1204159`;
  const tail = `${personal}${personal.replace(/</g, '') ? check(personal) : '<'}`;
  const body = `${head}${tail}`;
  const composite = check(`${body.slice(0, 10)}${body.slice(13, 20)}${body.slice(21, 43)}`);
  return [line1, `${body}${composite}`];
}

function td1(number: string, optional: string): string[] {
  const line1 = `I<UTO${number}${check(number)}${optional}`;
  const line2head = `7408122F1204159UTO`;
  const optional2 = 'D0O<<<<<<<<';
  const upper = `${line2head}${optional2}`;
  const composite = check(
    `${line1.slice(5, 30)}${upper.slice(0, 7)}${upper.slice(8, 15)}${upper.slice(18, 29)}`,
  );
  return [line1, `${upper}${composite}`, 'ERIKSSON<<ANNA<MARIA'.padEnd(30, '<')];
}

/** The zone with its TD1 composite check digit recomputed over its first two lines. */
function td1withComposite(lines: readonly string[]): string[] {
  const [line1 = '', line2 = '', line3 = ''] = lines;
  const composite = check(
    `${line1.slice(5, 30)}${line2.slice(0, 7)}${line2.slice(8, 15)}${line2.slice(18, 29)}`,
  );
  return [line1, `${line2.slice(0, 29)}${composite}`, line3];
}

/** Every check digit of the zone verifies, by the server's parser. */
function checksPass(lines: readonly string[]): boolean {
  return !parseMrz(lines.join('\n'), { now: new Date('2026-01-01') }).invalidFields.some((f) =>
    /CheckDigit$/i.test(f),
  );
}

/** Brute force: some other choice of round glyphs at `positions` of `line` passes every check digit. */
function oracle(lines: readonly string[], line: number, positions: readonly number[]): boolean {
  const text = lines[line]!;
  const choose = (k: number, chars: string[], changed: boolean): boolean => {
    if (k === positions.length) {
      if (!changed) return false;
      const alt = [...text];
      for (const [i, p] of positions.entries()) alt[p] = chars[i]!;
      return checksPass(lines.map((l, i) => (i === line ? alt.join('') : l)));
    }
    return ROUND.some((glyph) => choose(k + 1, [...chars, glyph], changed || glyph !== text[positions[k]!]));
  };
  return choose(0, [], false);
}

function subsets(items: readonly number[], size: number): number[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, k) => subsets(items.slice(k + 1), size - 1).map((rest) => [item, ...rest]));
}

describe('round-glyph slips in an MRZ line (mrz-round-slips.ts)', () => {
  // Where a letter and a digit may both stand (the reader's `X` positions): only there are round glyphs
  // loose; check digits hold digits only.
  const letterOrDigit = { TD1: /^(?:[5-9]|1[0-35-9]|2\d)$/, TD3: /^(?:[0-8]|2[89]|3\d|4[01])$/ };
  const zones: [format: 'TD1' | 'TD3', lines: string[], line: number][] = [
    ['TD3', td3('A0000000<', 'ZE0D8O26B<<<<<'), 1],
    ['TD3', td3('ZE000509O', '<<<<<<<<<<<<<<'), 1],
    ['TD3', td3('DO0Q0D0OQ', 'O0D<<<<<<<<<<<'), 1],
    ['TD1', td1('D00O0Q0D0', 'O0<<<<<<<<<<<<<'), 0],
  ];

  for (const [format, lines, line] of zones) {
    it(`agrees with the parser's check digits on ${format} ${lines[line]}`, () => {
      assert.ok(checksPass(lines), 'the zone built for the test verifies');
      const text = lines[line]!;
      const round = [...text].flatMap((c, k) =>
        ROUND.includes(c) && letterOrDigit[format].test(String(k)) ? [k] : [],
      );
      let cancel = 0;
      let safe = 0;
      for (const size of [2, 3]) {
        for (const positions of subsets(round, size)) {
          const expected = oracle(lines, line, positions);
          assert.equal(
            roundSlipsCouldCancel(format, line, text, positions),
            expected,
            `positions ${positions}`,
          );
          if (expected) cancel++;
          else safe++;
        }
      }
      // Both answers occur, so the comparison tells something.
      assert.ok(cancel > 0 && safe > 0, `${cancel} could cancel, ${safe} could not`);
    });
  }

  it('never calls slips safe that a TD1 number run on into the optional data could hide', () => {
    // A 12-character number: its first 9 characters, a filler where the check digit stands, the last 3
    // and their check digit in the optional data (ICAO 9303 part 5, note j).
    const number = 'D00O0Q0D0OQ0';
    const optional = `${number.slice(9)}${check(number)}`.padEnd(15, '<');
    const lines = td1(`${number.slice(0, 9)}`, optional).map((l, i) =>
      i === 0 ? `${l.slice(0, 14)}<${l.slice(15)}` : l,
    );
    const fixed = td1withComposite(lines);
    assert.ok(checksPass(fixed), 'the zone built for the test verifies');
    const round = [...fixed[0]!].flatMap((c, k) => (ROUND.includes(c) && k >= 5 && k !== 14 ? [k] : []));
    let cancel = 0;
    for (const positions of subsets(round, 2)) {
      if (!oracle(fixed, 0, positions)) continue;
      cancel++;
      assert.equal(roundSlipsCouldCancel('TD1', 0, fixed[0]!, positions), true, `positions ${positions}`);
    }
    assert.ok(cancel > 0);
  });

  it('counts a position no check digit covers as one that could always slip unseen', () => {
    const lines = td3('A0000000<', '<<<<<<<<<<<<<<');
    // Position 20 of the second line is the sex: no check digit covers it.
    assert.equal(roundSlipsCouldCancel('TD3', 1, lines[1]!, [1, 20]), true);
  });

  it('computes the check digit the parser accepts, filler and letters included', () => {
    // ICAO 9303 part 3's worked examples, then every number the suite's zones use.
    assert.equal(checkDigitOf('L898902C3'), '6');
    assert.equal(checkDigitOf('740812'), '2');
    assert.equal(checkDigitOf('D23145890'), '7');
    for (const number of ['A0000000<', 'D0O0QD0OQ', 'ZE000509<', 'K682T8YLO'])
      assert.equal(checkDigitOf(number), check(number), number);
  });
});
