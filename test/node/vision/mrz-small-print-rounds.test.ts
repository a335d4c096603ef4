import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundGlyphsContestedInSmallPrint } from '../../../server/runtime/node/vision/read-mrz.ts';

// The second line of the seed-9 passport whose number `101042070` was read `1O1042O70`: at weights 3 and
// 7 the two slips add 240, so its check digit and the composite still passed.
const READ = '1O1042O703GBR4701028M3109225<<<<<<<<<<<<<<<8';
const SURE = Array.from({ length: READ.length }, () => 0.99);

describe('round glyphs contested by the second reader in small print (read-mrz.ts)', () => {
  it('doubts two sure round glyphs the second reader reads otherwise when their slips could cancel', () => {
    const other = new Map([
      [1, '0'],
      [6, '0'],
    ]);
    assert.deepEqual(roundGlyphsContestedInSmallPrint('TD3', 1, READ, SURE, [], other), [1, 6]);
  });

  it('counts a round glyph read short of sure as loose beside one the second reader contests', () => {
    const shares = SURE.map((share, k) => (k === 6 ? 0.9 : share));
    const other = new Map([[1, '0']]);
    assert.deepEqual(roundGlyphsContestedInSmallPrint('TD3', 1, READ, shares, [], other), [1, 6]);
  });

  it('doubts nothing when the second reader agrees, or contests only one sure glyph', () => {
    const agrees = new Map([
      [1, 'O'],
      [6, 'O'],
    ]);
    assert.deepEqual(roundGlyphsContestedInSmallPrint('TD3', 1, READ, SURE, [], agrees), []);
    assert.deepEqual(roundGlyphsContestedInSmallPrint('TD3', 1, READ, SURE, [], new Map([[1, '0']])), []);
  });

  it('doubts nothing when no other choice of round glyphs there would pass the check digits', () => {
    // Weights 7 and 7 (positions 0 and 3): the slips of 0, O, D and Q there never cancel together.
    const read = 'O00O420703GBR4701028M3109225<<<<<<<<<<<<<<<8';
    const other = new Map([
      [0, '0'],
      [3, '0'],
    ]);
    const cancel = roundGlyphsContestedInSmallPrint('TD3', 1, read, SURE, [], other);
    assert.deepEqual(cancel, [], 'positions 0 and 3 alone');
  });

  it('takes no letter of the second reader against the classifier’s 0: its English model reads 0 as O of its own accord', () => {
    // A real Swiss card's `S0002068`: every 0 read surely by the classifier, `O`, `D`, `D` by Tesseract.
    const read = 'IDCHES0002068<8<<<<<<<<<<<<<<<';
    const other = new Map([
      [6, 'O'],
      [7, 'D'],
      [8, 'D'],
    ]);
    assert.deepEqual(roundGlyphsContestedInSmallPrint('TD1', 0, read, SURE, [], other), []);
  });

  it('looks only where a letter or a digit may stand, never at the dates or the check digits', () => {
    // The dates and their check digits hold digits only: a letter read there is the layout's to refuse.
    const read = `${READ.slice(0, 13)}O70102O${READ.slice(20)}`;
    const other = new Map([
      [13, '0'],
      [19, '0'],
    ]);
    assert.deepEqual(roundGlyphsContestedInSmallPrint('TD3', 1, read, SURE, [], other), []);
  });
});
