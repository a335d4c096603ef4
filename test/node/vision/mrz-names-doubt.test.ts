import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  inUncheckedCode,
  lettersAfterNamesPadding,
  MIN_NAME_CONFIDENCE,
  MIN_NAME_CONFIDENCE_OVER_SECOND_READ,
  MIN_SECONDED_NAME_CONFIDENCE,
  MIN_SMALL_ROUND_NAME_CONFIDENCE,
  namesOfferedWithSecondRead,
  photoCapital,
  roundNameLettersShortOfSure,
  secondReaderSlips,
  secondedNameLetters,
  uncheckedCodesShortOfCertain,
  uncheckedLettersContested,
} from '../../../server/runtime/node/vision/read-mrz.ts';

// A TD3 names line: `P<` and the issuing state (positions 0 to 4), then the names from position 5.
const LINE = 'P<ISLOESP<<ANNA';
const sure = (overrides: Record<number, number> = {}) => [...LINE].map((_, k) => overrides[k] ?? 1);

describe('unchecked letters the second reader reads otherwise', () => {
  it('leaves a letter the classifier is all but certain of as read', () => {
    // A real Icelandic passport: the classifier reads `O` at 0.999, Tesseract `Q`.
    const other = new Map([[5, 'Q']]);
    assert.deepEqual(uncheckedLettersContested('TD3', 0, LINE, sure({ 5: 0.999 }), other), []);
  });

  it('makes a letter read short of that share doubtful', () => {
    const other = new Map([
      [5, 'Q'],
      [7, 'F'],
    ]);
    const shares = sure({ 5: MIN_NAME_CONFIDENCE_OVER_SECOND_READ - 0.001, 7: 0.984 });
    assert.deepEqual(uncheckedLettersContested('TD3', 0, LINE, shares, other), [5, 7]);
  });

  it('ignores agreement, and the document code', () => {
    // Position 0 is the document code (a layout judges it); 11 is read the same.
    const other = new Map([
      [0, 'R'],
      [11, 'A'],
    ]);
    assert.deepEqual(uncheckedLettersContested('TD3', 0, LINE, sure({ 0: 0.5, 11: 0.5 }), other), []);
  });

  it('doubts the issuing state on the names line as it doubts the names', () => {
    // A real Icelandic passport: the classifier read `ISL` as `ZSL` surely; Tesseract read `I`.
    const other = new Map([
      [2, 'I'],
      [3, 'S'],
    ]);
    const zsl = 'P<ZSLOESP<<ANNA';
    assert.deepEqual(uncheckedLettersContested('TD3', 0, zsl, sure({ 2: 0.97 }), other), [2]);
    assert.deepEqual(uncheckedLettersContested('TD2', 0, zsl, sure({ 2: 0.97 }), other), [2]);
    // TD1's state is on its first line, which holds no names: doubted the same way.
    assert.deepEqual(uncheckedLettersContested('TD1', 0, 'IDZSL', sure({ 2: 0.97 }), other), [2]);
  });

  it('doubts the nationality and the sex, which no check digit covers either', () => {
    // A real Dutch passport: its nationality's bold `N` read `M` at 0.98, Tesseract reading `N`.
    const line = 'XA00000148MLD7110195F0604121123456782<<<<<02';
    const other = new Map([
      [10, 'N'],
      [20, 'M'],
      [13, '1'],
    ]);
    const shares = [...line].map((_, k) => (k === 10 || k === 20 ? 0.98 : 1));
    assert.deepEqual(uncheckedLettersContested('TD3', 1, line, shares, other), [10, 20]);
    // TD1: the sex at 7 and the nationality at 15–17 of the second line.
    const td1 = '7906123F1401073SEN<<<<<<<<<<<6';
    const td1Other = new Map([
      [7, 'M'],
      [15, 'B'],
      [3, '8'],
    ]);
    const td1Shares = [...td1].map((_, k) => (k === 7 || k === 15 || k === 3 ? 0.95 : 1));
    assert.deepEqual(uncheckedLettersContested('TD1', 1, td1, td1Shares, td1Other), [7, 15]);
  });

  it('takes no letter the sex cannot be for a reading of another sex', () => {
    // The sex is F, M, < or X: Tesseract's `E` for an `F` is its own slip, not a second opinion.
    const td1 = '7906123F1401073SEN<<<<<<<<<<<6';
    const shares = [...td1].map((_, k) => (k === 7 ? 0.95 : 1));
    assert.deepEqual(uncheckedLettersContested('TD1', 1, td1, shares, new Map([[7, 'E']])), []);
    assert.deepEqual(uncheckedLettersContested('TD1', 1, td1, shares, new Map([[7, 'M']])), [7]);
  });

  it('takes no digit the second reader reads for another letter', () => {
    // Off the names line Tesseract may read digits; a `0` where the nationality's `O` stands is no letter.
    const line = 'L898902C36POL7408122F1204159ZE184226B<<<<<10';
    const shares = [...line].map((_, k) => (k === 11 ? 0.97 : 1));
    assert.deepEqual(uncheckedLettersContested('TD3', 1, line, shares, new Map([[11, '0']])), []);
  });
  it('reads TD1 names on the third line only', () => {
    const other = new Map([[3, 'Q']]);
    const shares = [0.9, 0.9, 0.9, 0.9];
    assert.deepEqual(uncheckedLettersContested('TD1', 2, 'ANNO', shares, other), [3]);
    // Position 3 of the second line is in the date of birth, which its check digit covers.
    assert.deepEqual(uncheckedLettersContested('TD1', 1, 'ANNO', shares, other), []);
  });
});

describe('the codes the second reader is asked about off the names line', () => {
  const line = 'XA00000148MLD7110195F0604121123456782<<<<<02';
  const at = (overrides: Record<number, number>) => [...line].map((_, k) => overrides[k] ?? 1);

  it('are the unchecked codes read at the names share but short of all but certain', () => {
    assert.deepEqual(uncheckedCodesShortOfCertain('TD3', 1, line, at({ 10: 0.98 })), [10]);
    assert.deepEqual(uncheckedCodesShortOfCertain('TD3', 1, line, at({ 20: MIN_NAME_CONFIDENCE })), [20]);
  });

  it('leave out a code read all but certainly, one already doubtful, checked positions and fillers', () => {
    const shares = at({ 10: MIN_NAME_CONFIDENCE_OVER_SECOND_READ, 11: MIN_NAME_CONFIDENCE - 0.01, 0: 0.95 });
    assert.deepEqual(uncheckedCodesShortOfCertain('TD3', 1, line, shares), []);
    const filler = 'XA00000148<<<7110195<0604121123456782<<<<<02';
    assert.deepEqual(uncheckedCodesShortOfCertain('TD3', 1, filler, at({ 10: 0.95, 20: 0.95 })), []);
  });

  it("include a TD1 card's issuing state, on its first line", () => {
    const first = 'IDNLDSPECI2014<<<<<<<<<<<<<<<<';
    const shares = [...first].map((_, k) => (k === 2 ? 0.97 : 1));
    assert.deepEqual(uncheckedCodesShortOfCertain('TD1', 0, first, shares), [2]);
  });
});

describe("the second reader's own slips in a zone", () => {
  // A real Dutch card's names line (TD1, third line): Tesseract read both `H`s as `M`.
  const BELSER = 'BELSER<<JULIETTE<HENRIKE<SOPHI';
  const bothH = new Map([
    [17, 'M'],
    [28, 'M'],
  ]);

  it('are the substitutions it makes where the classifier is all but certain', () => {
    const shares = [...BELSER].map((_, k) => (k === 28 ? 0.98 : 0.999));
    assert.deepEqual([...secondReaderSlips('TD1', 2, BELSER, shares, bothH)], ['H>M']);
    const unsure = [...BELSER].map(() => MIN_NAME_CONFIDENCE_OVER_SECOND_READ - 0.001);
    assert.deepEqual([...secondReaderSlips('TD1', 2, BELSER, unsure, bothH)], []);
  });

  it('leave a letter read at the names share when the second reader repeats one', () => {
    const shares = [...BELSER].map((_, k) => (k === 28 ? 0.98 : 0.999));
    assert.deepEqual(uncheckedLettersContested('TD1', 2, BELSER, shares, bothH), []);
  });

  it('leave it doubtful below the names share, or where the classifier was nowhere certain', () => {
    const short = [...BELSER].map((_, k) => (k === 28 ? MIN_NAME_CONFIDENCE - 0.01 : 0.999));
    assert.deepEqual(uncheckedLettersContested('TD1', 2, BELSER, short, bothH), [28]);
    // Only the disputed `H` itself: the second reader has shown no slip elsewhere in the zone.
    const alone = [...BELSER].map((_, k) => (k === 28 ? 0.98 : 0.999));
    assert.deepEqual(uncheckedLettersContested('TD1', 2, BELSER, alone, new Map([[28, 'M']])), [28]);
  });

  it('excuse no other substitution, and not the issuing state', () => {
    const shares = [...BELSER].map((_, k) => (k === 28 || k === 3 ? 0.98 : 0.999));
    const other = new Map([
      [17, 'M'],
      [3, 'F'],
    ]);
    assert.deepEqual(uncheckedLettersContested('TD1', 2, BELSER, shares, other), [3]);
    // TD3: the state `NLD` read surely as `MLD`, `N>M` shown in the names, does not excuse the state.
    const line = 'P<NLDNAN<<NINA';
    const sureButState = [...line].map((_, k) => (k === 2 ? 0.98 : 0.999));
    const stateOther = new Map([
      [2, 'M'],
      [5, 'M'],
    ]);
    assert.deepEqual(uncheckedLettersContested('TD3', 0, line, sureButState, stateOther), [2]);
  });
});

describe('name letters two readers agree on', () => {
  // A TD3 names line under motion blur: the classifier read the `O` of LOPEZ at 0.88, Tesseract the same.
  const LOPEZ = 'P<BELLOPEZ<<PIERRE';
  const shares = (overrides: Record<number, number>) => [...LOPEZ].map((_, k) => overrides[k] ?? 1);

  it('count from the check digits’ share up to the names’ own, when the second reader reads the same', () => {
    assert.deepEqual(secondedNameLetters('TD3', 0, LOPEZ, shares({ 6: 0.88 }), new Map([[6, 'O']])), [6]);
    assert.deepEqual(
      secondedNameLetters('TD3', 0, LOPEZ, shares({ 6: MIN_SECONDED_NAME_CONFIDENCE }), new Map([[6, 'O']])),
      [6],
    );
  });

  it('do not count below that share, against the second reader, or where it read nothing', () => {
    const low = shares({ 6: MIN_SECONDED_NAME_CONFIDENCE - 0.01 });
    assert.deepEqual(secondedNameLetters('TD3', 0, LOPEZ, low, new Map([[6, 'O']])), []);
    assert.deepEqual(secondedNameLetters('TD3', 0, LOPEZ, shares({ 6: 0.88 }), new Map([[6, 'D']])), []);
    assert.deepEqual(secondedNameLetters('TD3', 0, LOPEZ, shares({ 6: 0.88 }), new Map()), []);
  });

  it('are the names only: not the issuing state, not a filler, not another line', () => {
    const other = new Map([
      [2, 'B'],
      [10, '<'],
    ]);
    assert.deepEqual(secondedNameLetters('TD3', 0, LOPEZ, shares({ 2: 0.8, 10: 0.8 }), other), []);
    assert.deepEqual(secondedNameLetters('TD3', 1, LOPEZ, shares({ 6: 0.88 }), new Map([[6, 'O']])), []);
    assert.deepEqual(secondedNameLetters('TD1', 2, 'LOPEZ', [1, 0.8, 1, 1, 1], new Map([[1, 'O']])), [1]);
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

describe('the names offered to the person to confirm', () => {
  const FRA = 'P<FRAULYSSE<<CHRTSTOPHE<<';

  it("offers the second reader's letter where the classifier is short of the names' share", () => {
    // A real French passport: the classifier read the `I` of CHRISTOPHE as `T` at 0.83, Tesseract `I`.
    const shares = [...FRA].map((_, k) => (k === 16 ? 0.83 : 1));
    assert.equal(
      namesOfferedWithSecondRead('TD3', 0, FRA, shares, new Map([[16, 'I']])),
      'P<FRAULYSSE<<CHRISTOPHE<<',
    );
  });

  it("keeps the classifier's letter where it reached the names' share", () => {
    const shares = [...FRA].map((_, k) => (k === 16 ? MIN_NAME_CONFIDENCE : 1));
    assert.equal(namesOfferedWithSecondRead('TD3', 0, FRA, shares, new Map([[16, 'I']])), FRA);
  });

  it('never changes the document code, the issuing state or a filler', () => {
    const shares = [...FRA].map(() => 0.5);
    const other = new Map([
      [0, 'R'],
      [2, 'E'],
      [11, 'K'],
    ]);
    assert.equal(namesOfferedWithSecondRead('TD3', 0, FRA, shares, other), FRA);
    // TD1: the names are on the third line only.
    assert.equal(
      namesOfferedWithSecondRead('TD1', 0, 'IDFRA', [0.5, 0.5, 0.5, 0.5, 0.5], new Map([[3, 'K']])),
      'IDFRA',
    );
    assert.equal(namesOfferedWithSecondRead('TD1', 2, 'ANNT', [1, 1, 1, 0.6], new Map([[3, 'I']])), 'ANNI');
  });
});

describe('the codes no check digit covers outside the names', () => {
  it('are the issuing state, the nationality and the sex, by format', () => {
    const positions = (format: 'TD1' | 'TD2' | 'TD3', line: number, length: number) =>
      Array.from({ length }, (_, k) => k).filter((k) => inUncheckedCode(format, line, k));
    // TD1: `I<UTO…`, then `7408122F1204159UTO…`.
    assert.deepEqual(positions('TD1', 0, 30), [2, 3, 4]);
    assert.deepEqual(positions('TD1', 1, 30), [7, 15, 16, 17]);
    assert.deepEqual(positions('TD1', 2, 30), []);
    // TD3: `P<UTO…`, then `L898902C36UTO7408122F…`.
    assert.deepEqual(positions('TD3', 0, 44), [2, 3, 4]);
    assert.deepEqual(positions('TD3', 1, 44), [10, 11, 12, 20]);
    assert.deepEqual(positions('TD2', 1, 36), [10, 11, 12, 20]);
  });
});

describe("round letters of the names below the classifier's trained size", () => {
  it('doubts an O, D or Q of the names read short of all but certain', () => {
    // Generated at 300 px (seed 3): `WOJCIK`'s `O` read `D` at 0.994, Tesseract reading `D` too.
    const line = 'P<SWEWDJCIK<<OLOF';
    const shares = [...line].map(() => 1);
    shares[6] = 0.994;
    shares[13] = MIN_SMALL_ROUND_NAME_CONFIDENCE;
    shares[15] = 0.99;
    assert.deepEqual(roundNameLettersShortOfSure('TD3', 0, line, shares), [6, 15]);
  });

  it('leaves other letters, and the codes before the names, to the other rules', () => {
    // `K` at 0.9 is not round; the `D` of a state code `DEU` (position 2) is not in the names.
    const line = 'P<DEUKRAUSE<<ANNA';
    const shares = [...line].map(() => 0.9);
    assert.deepEqual(roundNameLettersShortOfSure('TD3', 0, line, shares), []);
    // A TD1 card's names are on its third line; its first line holds none.
    assert.deepEqual(roundNameLettersShortOfSure('TD1', 0, 'IDD', [1, 1, 0.5]), []);
    assert.deepEqual(roundNameLettersShortOfSure('TD1', 2, 'OLSEN', [0.9, 1, 1, 1, 1]), [0]);
  });

  it("measures the capital height in the photo's own pixels, before any enlargement", () => {
    // Two lines whose capitals are 20 px at their middle cell, on a page enlarged 2.9 times.
    const line = {
      x: [10, 20, 0] as [number, number, number],
      y: [50, 0] as [number, number],
      h: [21.5, -0.1] as [number, number],
    };
    assert.equal(photoCapital([line, line], 31, 1), 20);
    assert.ok(Math.abs(photoCapital([line, line], 31, 2.9) - 6.9) < 0.01);
  });
});
