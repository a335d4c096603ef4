import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStateCode } from '../../../server/domain/mrz.ts';
import { stateCodesByTheList } from '../../../server/runtime/node/vision/read-mrz.ts';

// A real Dutch passport as the classifier read it: its bold `N` read `M` in both codes (`MLD`).
const DUTCH = [
  'P<MLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<',
  'XA00000148MLD7110195F0604121123456782<<<<<02',
];
const seconds = (first: [number, string][], second: [number, string][]) => [new Map(first), new Map(second)];

describe('state codes', () => {
  it('are the codes ICAO 9303 lists, padded with fillers as printed, and the specimens’ UTO', () => {
    assert.equal(isStateCode('NLD'), true);
    assert.equal(isStateCode('D<<'), true);
    assert.equal(isStateCode('UTO'), true);
    assert.equal(isStateCode('MLD'), false);
    assert.equal(isStateCode('<<<'), false);
    assert.equal(isStateCode('N0D'), false);
  });
});

describe('a state code the two readers read differently', () => {
  it("takes the second reader's letters when only its reading is a code", () => {
    const taken = stateCodesByTheList('TD3', DUTCH, [[2], [10]], seconds([[2, 'N']], [[10, 'N']]));
    assert.deepEqual(taken, [
      { line: 0, position: 2, character: 'N' },
      { line: 1, position: 10, character: 'N' },
    ]);
  });

  it("keeps the classifier's code when it is a code itself, however the second reader reads it", () => {
    const lines = ['P<NLDMEULENDIJK<<LOES', 'XA00000148NLD7110195F'];
    // `NLD` read by the classifier, `MLD` by the second reader: no list can prefer the second.
    assert.deepEqual(stateCodesByTheList('TD3', lines, [[2], [10]], seconds([[2, 'M']], [[10, 'M']])), []);
  });

  it('leaves the code doubtful when the second reading is no code either', () => {
    assert.deepEqual(stateCodesByTheList('TD3', DUTCH, [[2], []], seconds([[2, 'H']], [])), []);
  });

  it('needs every doubtful letter of the code read otherwise by the second reader', () => {
    // Position 3 is in doubt too, and the second reader read it the same, or not at all: no proposal.
    assert.deepEqual(
      stateCodesByTheList(
        'TD3',
        DUTCH,
        [[2, 3], []],
        seconds(
          [
            [2, 'N'],
            [3, 'L'],
          ],
          [],
        ),
      ),
      [],
    );
    assert.deepEqual(stateCodesByTheList('TD3', DUTCH, [[2, 3], []], seconds([[2, 'N']], [])), []);
    // A digit the second reader reads is no letter of a code.
    assert.deepEqual(stateCodesByTheList('TD3', DUTCH, [[], [10]], seconds([], [[10, '4']])), []);
  });

  it('changes no letter that is not in doubt, and nothing where the second reader was not asked', () => {
    assert.deepEqual(stateCodesByTheList('TD3', DUTCH, [[], []], seconds([[2, 'N']], [[10, 'N']])), []);
    assert.deepEqual(stateCodesByTheList('TD3', DUTCH, [[2], [10]], [undefined, undefined]), []);
  });

  it("reads a TD1 card's nationality on its second line", () => {
    const card = [
      'I<MLDSPECI2014<<<<<<<<<<<<<<<<',
      '6503101F2403096MLD<<<<<<<<<<<8',
      'DE<BRUIJN<<WILLEKE<LISELOTTE<<',
    ];
    const taken = stateCodesByTheList(
      'TD1',
      card,
      [[], [15], []],
      [undefined, new Map([[15, 'N']]), undefined],
    );
    assert.deepEqual(taken, [{ line: 1, position: 15, character: 'N' }]);
  });
});
