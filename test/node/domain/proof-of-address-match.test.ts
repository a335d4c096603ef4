import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchProofOfAddress } from '../../../server/domain/proof-of-address-match.ts';

const NOW = new Date('2026-04-01T10:00:00Z');
const ANNA = { first_name: 'ANNA MARIA', last_name: 'ERIKSSON' };

const nameFound = (text: string, name = ANNA) => matchProofOfAddress(text, name, NOW, 92).name_found;
const issueDate = (text: string) => matchProofOfAddress(text, ANNA, NOW, 92).issue_date;

const BILL = `NORDIC POWER AB
Customer number 4455-221
Mrs Anna Eriksson
Storgatan 12
111 22 Stockholm
Invoice date: 12 March 2026
Due date: 15 April 2026
Amount due 812.50 SEK`;

describe('proof of address: the name', () => {
  it('finds the first and last name printed together', () => {
    assert.equal(nameFound(BILL), true);
  });

  const variants: Array<[string, string, { first_name: string; last_name: string }?]> = [
    ['upper case, last name first', 'ERIKSSON, ANNA M.'],
    ['with a middle name between', 'Anna Maria Eriksson'],
    ['broken over two lines by OCR', 'Anna\nEriksson\nStorgatan 12'],
    ['hyphenated across a line break', 'Anna Eriks-\nson, Storgatan 12'],
    ['with extra spaces and tabs', 'Anna   \t Eriksson'],
    ['accented on the page, plain in the MRZ', 'Ánna Érïksson'],
    [
      'German umlaut against the ICAO transliteration',
      'Jörg Müller',
      { first_name: 'JOERG', last_name: 'MUELLER' },
    ],
    ['German umlaut against base letters', 'Jörg Müller', { first_name: 'JORG', last_name: 'MULLER' }],
    [
      'typed name with accents, page without',
      'JOSE GARCIA LOPEZ',
      { first_name: 'José', last_name: 'García López' },
    ],
    [
      'a double last name run together by OCR',
      'Jose GarciaLopez',
      { first_name: 'JOSE', last_name: 'GARCIA LOPEZ' },
    ],
  ];
  for (const [label, text, name] of variants) {
    it(`finds the name ${label}`, () => {
      assert.equal(nameFound(text, name), true);
    });
  }

  const misses: Array<[string, string]> = [
    ['only the last name', 'Mr K Eriksson\nStorgatan 12'],
    ['only an initial for the first name', 'A. Eriksson, Storgatan 12'],
    ['another first name', 'Karin Eriksson'],
    [
      'first and last name far apart',
      'Anna Street 4, Customer service: call 0800 123 456, Eriksson Energy AB',
    ],
    ['the last name inside a longer word', 'Anna Erikssonsgatan 3'],
    ['nothing', ''],
  ];
  for (const [label, text] of misses) {
    it(`does not find the name with ${label}`, () => {
      assert.equal(nameFound(text), false);
    });
  }
});

describe('proof of address: the issue date', () => {
  const formats: Array<[string, string]> = [
    ['12 March 2026', '2026-03-12'],
    ['12th Mar. 2026', '2026-03-12'],
    ['March 12, 2026', '2026-03-12'],
    ['Sept 3 2025', '2025-09-03'],
    ['2026-03-12', '2026-03-12'],
    ['2026/03/12', '2026-03-12'],
    ['12.03.2026', '2026-03-12'],
    ['3.2.2026', '2026-02-03'],
    ['25/03/2026', '2026-03-25'],
    ['03/25/2026', '2026-03-25'],
    ['12-03-2026', '2026-03-12'],
  ];
  for (const [text, expected] of formats) {
    it(`reads ${text}`, () => {
      assert.equal(issueDate(`Statement ${text}`), expected);
    });
  }

  it('reads an ambiguous slash date day first by default', () => {
    assert.equal(issueDate('Printed 03/02/2026'), '2026-02-03');
  });

  it("reads an ambiguous slash date by the text's own month-first convention", () => {
    assert.equal(issueDate('Period 02/20/2026 to 03/02/2026'), '2026-03-02');
  });

  it('prefers the labelled issue date over a later due date', () => {
    assert.equal(issueDate(BILL), '2026-03-12');
  });

  it('without a label, takes the latest date that is not in the future', () => {
    assert.equal(issueDate('Period 01.02.2026 - 28.02.2026\nPay by 20.04.2026'), '2026-02-28');
  });

  it('does not take a due date for the issue date', () => {
    assert.equal(issueDate('Due date: 20.03.2026\nBalance 2026-03-01'), '2026-03-20');
    assert.equal(issueDate('Payment due date 20.05.2026, statement 01.03.2026'), '2026-03-01');
  });

  it('ignores impossible dates, two-digit years and numbers that are not dates', () => {
    assert.equal(issueDate('31.02.2026 and 12/03/26 and 1234-5678'), null);
  });
});

describe('proof of address: the window', () => {
  const within = (text: string, maxAgeDays = 92) =>
    matchProofOfAddress(`Anna Eriksson ${text}`, ANNA, NOW, maxAgeDays);

  it('accepts a document issued today and one exactly at the limit', () => {
    assert.equal(within('Invoice date 01.04.2026').within_window, true);
    assert.equal(within('Invoice date 2025-12-30').within_window, true); // 92 days before 1 April 2026
  });

  it('refuses one a day past the limit', () => {
    const result = within('Invoice date 2025-12-29');
    assert.deepEqual(result, { name_found: true, issue_date: '2025-12-29', within_window: false });
  });

  it("applies the tenant's window", () => {
    assert.equal(within('Invoice date 2026-02-01', 30).within_window, false);
    assert.equal(within('Invoice date 2026-03-15', 30).within_window, true);
  });

  it('refuses an issue date in the future', () => {
    assert.deepEqual(within('Invoice date 2026-04-02'), {
      name_found: true,
      issue_date: '2026-04-02',
      within_window: false,
    });
  });

  it('reports no window without a date', () => {
    assert.deepEqual(within('no dates here'), { name_found: true, issue_date: null, within_window: false });
  });
});
