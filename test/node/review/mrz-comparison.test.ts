import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contradictedFields } from '../../../server/domain/review/mrz-comparison.ts';
import type { ConfirmedDetails, ParsedMrz } from '../../../server/domain/review/review-input.ts';

const typed: ConfirmedDetails = {
  first_name: 'Anna Maria',
  last_name: 'Eriksson',
  date_of_birth: '1974-08-12',
  document_number: 'L898902C3',
  expiry_date: '2032-04-15',
};
const printed: ParsedMrz = {
  first_name: 'ANNA MARIA',
  last_name: 'ERIKSSON',
  date_of_birth: '740812',
  document_number: 'L898902C3',
  expiry_date: '320415',
  check_digits_valid: true,
};

describe('MRZ comparison: what is not a contradiction', () => {
  const agreeing: Array<[label: string, details: Partial<ConfirmedDetails>, mrz: Partial<ParsedMrz>]> = [
    ['identical values', {}, {}],
    ['lower-case typing', { last_name: 'eriksson', first_name: 'anna maria' }, {}],
    ['ICAO umlaut expansion', { last_name: 'Müller' }, { last_name: 'MUELLER' }],
    ['umlauts printed as base letters', { last_name: 'Müller' }, { last_name: 'MULLER' }],
    ['ß as SS', { last_name: 'Strauß' }, { last_name: 'STRAUSS' }],
    ['accents dropped', { first_name: 'José Ángel' }, { first_name: 'JOSE ANGEL' }],
    ['Ø as O', { first_name: 'Søren' }, { first_name: 'SOREN' }],
    ['Ø as OE', { first_name: 'Søren' }, { first_name: 'SOEREN' }],
    ['hyphens and apostrophes', { last_name: "O'Brien-Smith" }, { last_name: 'O BRIEN SMITH' }],
    ['MRZ fillers left in', { first_name: 'Anna Maria' }, { first_name: 'ANNA<MARIA' }],
    ['a middle name left out when typing', { first_name: 'Anna' }, {}],
    ['the first given name left out when typing', { first_name: 'Maria' }, {}],
    [
      'a name truncated inside a word by the MRZ',
      { last_name: 'Featherstonehaugh' },
      { last_name: 'FEATHERSTONEH' },
    ],
    ['a document number typed with spaces and dashes', { document_number: 'l898 902-c3' }, {}],
    [
      'MRZ filler after a short document number',
      { document_number: 'X1234' },
      { document_number: 'X1234<<<<' },
    ],
    [
      'MRZ dates already resolved to YYYY-MM-DD',
      {},
      { date_of_birth: '1974-08-12', expiry_date: '2032-04-15' },
    ],
    ['an MRZ expiry filled with < (no expiry printed)', {}, { expiry_date: '<<<<<<' }],
  ];
  for (const [label, details, mrz] of agreeing) {
    it(`accepts ${label}`, () => {
      assert.deepEqual(contradictedFields({ ...typed, ...details }, { ...printed, ...mrz }), []);
    });
  }
});

describe('MRZ comparison: contradictions', () => {
  const contradicting: Array<[label: string, details: Partial<ConfirmedDetails>, field: string]> = [
    ['another surname', { last_name: 'Andersson' }, 'last_name'],
    ['another given name', { first_name: 'Karin' }, 'first_name'],
    ['another birth date', { date_of_birth: '1975-08-12' }, 'date_of_birth'],
    ['another document number', { document_number: 'L898902C4' }, 'document_number'],
    ['another expiry date', { expiry_date: '2031-04-15' }, 'expiry_date'],
  ];
  for (const [label, details, field] of contradicting) {
    it(`reports ${field} for ${label}`, () => {
      assert.deepEqual(contradictedFields({ ...typed, ...details }, printed), [field]);
    });
  }

  it('reports a birth date that differs from a resolved MRZ date', () => {
    assert.deepEqual(contradictedFields(typed, { ...printed, date_of_birth: '1974-08-13' }), [
      'date_of_birth',
    ]);
  });

  it('reports every contradicted field at once', () => {
    const details = { ...typed, last_name: 'Andersson', date_of_birth: '1980-01-01' };
    assert.deepEqual(contradictedFields(details, printed), ['last_name', 'date_of_birth']);
  });
});
