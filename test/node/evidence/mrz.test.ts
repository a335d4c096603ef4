import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MrzFormatError, parseMrz, toReviewMrz } from '../../../server/domain/mrz.ts';

/** ICAO Doc 9303 specimens (Utopia). */
const TD3 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10';
const TD1 = 'I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<';
const now = new Date('2025-01-01T00:00:00Z');

describe('parseMrz', () => {
  it('reads the TD3 passport specimen with verified check digits and resolved dates', () => {
    const mrz = parseMrz(TD3, { now });
    assert.equal(mrz.valid, true);
    assert.equal(mrz.format, 'TD3');
    assert.equal(mrz.documentType, 'passport');
    assert.equal(mrz.documentNumber, 'L898902C3');
    assert.equal(mrz.firstName, 'ANNA MARIA');
    assert.equal(mrz.lastName, 'ERIKSSON');
    assert.equal(mrz.dateOfBirth, '1974-08-12');
    assert.equal(mrz.expiryDate, '2012-04-15');
    assert.equal(mrz.nationality, 'UTO');
  });

  it('reads the TD1 identity card specimen and tolerates lower case, CR LF and blank lines', () => {
    const mrz = parseMrz(`\n${TD1.toLowerCase().replaceAll('\n', '\r\n')}\n`, { now });
    assert.equal(mrz.valid, true);
    assert.equal(mrz.format, 'TD1');
    assert.equal(mrz.documentType, 'id_card');
    assert.equal(mrz.documentNumber, 'D23145890');
  });

  it('accepts X, ICAO 9303’s unspecified sex, in TD3 and TD1, and still refuses other letters', () => {
    // The specimens with F at the sex position replaced: no check digit covers that position.
    const td3 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122X1204159ZE184226B<<<<<10';
    const td1 =
      'I<UTOD231458907<<<<<<<<<<<<<<<\n7408122X1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<';
    for (const [text, format] of [
      [td3, 'TD3'],
      [td1, 'TD1'],
    ] as const) {
      const mrz = parseMrz(text, { now });
      assert.equal(mrz.format, format);
      assert.deepEqual(mrz.invalidFields, [], format);
      assert.equal(mrz.valid, true, format);
      assert.equal(mrz.dateOfBirth, '1974-08-12', format);
      assert.equal(mrz.expiryDate, '2012-04-15', format);
      const other = parseMrz(text.replace('7408122X', '7408122Q'), { now });
      assert.equal(other.valid, false, format);
      assert.deepEqual(other.invalidFields, ['sex'], format);
    }
  });

  it('marks a wrong check digit invalid and names the field', () => {
    const mrz = parseMrz(TD3.replace('7408122F', '7408123F'), { now });
    assert.equal(mrz.valid, false);
    assert.ok(mrz.invalidFields.includes('dateOfBirthCheckDigit'));
  });

  it('refuses 31 February even when its check digit is right', () => {
    // 740231 has check digit 5 (7·7 + 4·3 + 0·1 + 2·7 + 3·3 + 1·1 = 85), so only the calendar refuses it.
    const line2 = 'L898902C36UTO7402315F1204159ZE184226B<<<<<1';
    const mrz = parseMrz(`${TD3.split('\n')[0]}\n${line2}0`, { now });
    assert.equal(mrz.dateOfBirth, null);
    assert.ok(mrz.invalidFields.includes('dateOfBirth'));
    assert.ok(!mrz.invalidFields.includes('dateOfBirthCheckDigit'));
    assert.equal(mrz.valid, false);
  });

  it('a check digit that verifies over a character the reader was unsure of is not valid', () => {
    // Position 3 of line 2 is in the document number; its check digit verifies, but over a guess.
    const mrz = parseMrz(TD3, { now, uncertain: [[], [3]] });
    assert.equal(mrz.valid, false);
    assert.deepEqual(mrz.invalidFields, []);
    assert.deepEqual(mrz.uncertainFields, ['documentNumber']);
    assert.equal(mrz.namesUncertain, false);
    // Between fields (the TD3 personal number's fillers are covered by no field of their own).
    assert.deepEqual(parseMrz(TD3, { now, uncertain: [[], [40, 11]] }).uncertainFields, [
      'filler',
      'nationality',
    ]);
    // The document code and issuing state on the name line are fields like any other.
    assert.deepEqual(parseMrz(TD3, { now, uncertain: [[3], []] }).uncertainFields, ['issuingCountry']);
  });

  it('unsure names keep the zone valid but say so: no check digit covers them', () => {
    for (const [text, uncertain] of [
      [TD3, [[8], []]],
      [TD3, [[40], []]],
      [TD1, [[], [], [0]]],
    ] as const) {
      const mrz = parseMrz(text, { now, uncertain });
      assert.equal(mrz.valid, true);
      assert.equal(mrz.namesUncertain, true);
      assert.deepEqual(mrz.uncertainFields, []);
    }
    assert.equal(parseMrz(TD3, { now }).namesUncertain, false);
    const review = toReviewMrz(parseMrz(TD3, { now, uncertain: [[8], []] }));
    assert.deepEqual([review.first_name, review.last_name, review.check_digits_valid], ['', '', true]);
    assert.equal(parseMrz(TD3, { now, uncertain: [[], []] }).namesUncertain, false);
  });

  it('throws MrzFormatError for text that is no MRZ at all', () => {
    assert.throws(() => parseMrz('hello world'), MrzFormatError);
    assert.throws(() => parseMrz(''), MrzFormatError);
  });

  it('maps to the review shape, unreadable dates as empty strings', () => {
    assert.deepEqual(toReviewMrz(parseMrz(TD3, { now })), {
      first_name: 'ANNA MARIA',
      last_name: 'ERIKSSON',
      date_of_birth: '1974-08-12',
      document_number: 'L898902C3',
      expiry_date: '2012-04-15',
      check_digits_valid: true,
    });
  });
});
