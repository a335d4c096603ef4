import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAamva } from '../../../server/domain/aamva.ts';

const LF = '\n';
const RS = '\x1e';
const CR = '\r';

interface Card {
  version?: number;
  iin?: string;
  type?: 'DL' | 'ID';
  elements: Record<string, string>;
  /** Shift the designator's offset, as jurisdictions that miscount do. */
  offsetError?: number;
  /** Add a jurisdiction-specific subfile after the DL/ID one. */
  jurisdictionSubfile?: boolean;
}

/** Hand-assembled AAMVA data: compliance indicator, header, designators, subfiles with true offsets. */
function card({
  version = 10,
  iin = '636014',
  type = 'DL',
  elements,
  offsetError = 0,
  jurisdictionSubfile,
}: Card) {
  const subfiles: [string, string][] = [
    [
      type,
      type +
        Object.entries(elements)
          .map(([id, value]) => id + value)
          .join(LF) +
        CR,
    ],
  ];
  if (jurisdictionSubfile) subfiles.push(['ZC', `ZCZCAVALUE${CR}`]);
  const versionPart = String(version).padStart(2, '0') + (version >= 2 ? '00' : '');
  const header = `@${LF}${RS}${CR}ANSI ${iin}${versionPart}${String(subfiles.length).padStart(2, '0')}`;
  let offset = header.length + subfiles.length * 10;
  const designators = subfiles.map(([name, body]) => {
    const designator = `${name}${String(offset + offsetError).padStart(4, '0')}${String(body.length).padStart(4, '0')}`;
    offset += body.length;
    return designator;
  });
  return header + designators.join('') + subfiles.map(([, body]) => body).join('');
}

const CALIFORNIA = {
  DCA: 'C',
  DCB: 'NONE',
  DCD: 'NONE',
  DBA: '04152030',
  DCS: 'SAMPLE',
  DAC: 'JANE',
  DAD: 'QUINN',
  DBD: '04152022',
  DBB: '04011990',
  DBC: '2',
  DAY: 'BRO',
  DAU: '065 IN',
  DAG: '123 MAIN STREET',
  DAI: 'SACRAMENTO',
  DAJ: 'CA',
  DAK: '958180000',
  DAQ: 'D1234567',
  DCF: '00/00/0000NNNAN/ANFD/YY',
  DCG: 'USA',
  DDE: 'N',
  DDF: 'N',
  DDG: 'N',
};

describe('AAMVA: reading a card', () => {
  it('reads a US licence (version 10): names, month-first dates, number, jurisdiction', () => {
    assert.deepEqual(parseAamva(card({ elements: CALIFORNIA })), {
      first_name: 'JANE QUINN',
      last_name: 'SAMPLE',
      date_of_birth: '1990-04-01',
      expiry_date: '2030-04-15',
      document_number: 'D1234567',
      issuing_jurisdiction: 'CA',
    });
  });

  it('reads a Canadian licence with year-first dates, by its country', () => {
    const ontario = {
      DCS: 'TREMBLAY',
      DAC: 'MARIE',
      DAQ: 'T1234-56789-01234',
      DBB: '19850712',
      DBA: '20290712',
      DAJ: 'ON',
      DCG: 'CAN',
    };
    const fields = parseAamva(card({ iin: '636012', elements: ontario }));
    assert.equal(fields?.date_of_birth, '1985-07-12');
    assert.equal(fields?.expiry_date, '2029-07-12');
    assert.equal(fields?.first_name, 'MARIE');
    assert.equal(fields?.issuing_jurisdiction, 'ON');
  });

  it('takes a Canadian jurisdiction for year-first dates when the country element is missing', () => {
    const quebec = { DCS: 'ROY', DAC: 'LUC', DAQ: 'R1234', DBB: '19700102', DAJ: 'QC' };
    assert.equal(parseAamva(card({ elements: quebec }))?.date_of_birth, '1970-01-02');
  });

  it('still reads a date printed in the other layout, which can never be ambiguous', () => {
    const deviating = { ...CALIFORNIA, DBB: '19900401' };
    assert.equal(parseAamva(card({ elements: deviating }))?.date_of_birth, '1990-04-01');
  });

  it('reads an ID card subfile', () => {
    assert.equal(parseAamva(card({ type: 'ID', elements: CALIFORNIA }))?.document_number, 'D1234567');
  });

  it('reads version 01: DAA full name and year-first dates', () => {
    const old = { DAQ: 'A7654321', DAA: 'PUBLIC,JOHN,Q', DBB: '19700315', DBA: '20080315', DAJ: 'VA' };
    assert.deepEqual(parseAamva(card({ version: 1, elements: old })), {
      first_name: 'JOHN Q',
      last_name: 'PUBLIC',
      date_of_birth: '1970-03-15',
      expiry_date: '2008-03-15',
      document_number: 'A7654321',
      issuing_jurisdiction: 'VA',
    });
  });

  it('reads version 02: DCT given names', () => {
    const v2 = { DAQ: 'B1', DCS: 'DOE', DCT: 'JOHN,PAUL', DBB: '01021980', DAJ: 'NY' };
    assert.equal(parseAamva(card({ version: 2, elements: v2 }))?.first_name, 'JOHN PAUL');
  });

  it('leaves out a middle name printed as NONE', () => {
    const noMiddle = { ...CALIFORNIA, DAD: 'NONE' };
    assert.equal(parseAamva(card({ elements: noMiddle }))?.first_name, 'JANE');
  });

  it('finds the subfile when the designator offset is wrong', () => {
    assert.equal(parseAamva(card({ elements: CALIFORNIA, offsetError: 7 }))?.last_name, 'SAMPLE');
  });

  it('stops at the end of its subfile, before a jurisdiction subfile', () => {
    const fields = parseAamva(card({ elements: CALIFORNIA, jurisdictionSubfile: true }));
    assert.equal(fields?.issuing_jurisdiction, 'CA');
  });

  it('reads data whose reader dropped the control characters', () => {
    const stripped = card({ elements: CALIFORNIA }).replaceAll(RS, '').replaceAll(CR, '');
    assert.equal(parseAamva(stripped)?.document_number, 'D1234567');
  });
});

describe('AAMVA: malformed data', () => {
  it('refuses text that is not AAMVA data', () => {
    assert.equal(parseAamva(''), null);
    assert.equal(parseAamva('https://example.com/ticket/123'), null);
    assert.equal(parseAamva('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'), null);
  });

  it('refuses a header without its counts', () => {
    assert.equal(parseAamva(`@${LF}${RS}${CR}ANSI 6360141000`), null);
  });

  it('refuses data without a DL or ID subfile', () => {
    const header = `@${LF}${RS}${CR}ANSI 636014100001ZC00310010ZCZCAVALUE${CR}`;
    assert.equal(parseAamva(header), null);
  });

  it('refuses a card without a number or a name', () => {
    const { DAQ: _number, ...withoutNumber } = CALIFORNIA;
    assert.equal(parseAamva(card({ elements: withoutNumber })), null);
    const { DCS: _last, ...withoutLastName } = CALIFORNIA;
    assert.equal(parseAamva(card({ elements: withoutLastName })), null);
    const { DAC: _first, DAD: _middle, ...withoutGivenNames } = CALIFORNIA;
    assert.equal(parseAamva(card({ elements: withoutGivenNames })), null);
  });

  it('keeps the card but drops dates that are impossible or malformed', () => {
    const badDates = { ...CALIFORNIA, DBB: '02301990', DBA: '2030-04-15' };
    const fields = parseAamva(card({ elements: badDates }));
    assert.equal(fields?.date_of_birth, null);
    assert.equal(fields?.expiry_date, null);
    assert.equal(fields?.document_number, 'D1234567');
  });

  it('gives a null jurisdiction when the card has none', () => {
    const { DAJ: _jurisdiction, ...withoutJurisdiction } = CALIFORNIA;
    assert.equal(parseAamva(card({ elements: withoutJurisdiction }))?.issuing_jurisdiction, null);
  });
});
