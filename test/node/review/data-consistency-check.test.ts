import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AamvaFields } from '../../../server/domain/aamva.ts';
import { checkDataConsistency } from '../../../server/domain/review/data-consistency-check.ts';
import { documentSources, sourceDisagreements } from '../../../server/domain/review/document-sources.ts';
import type { IdDocumentEvidence } from '../../../server/domain/review/review-input.ts';
import { inputWith, passportEvidence, passportReading, READ_MRZ, TYPED } from './vision-evidence.ts';

const check = (document: IdDocumentEvidence | undefined) =>
  checkDataConsistency(inputWith(document === undefined ? {} : { id_document: document }));

const BARCODE: AamvaFields = {
  first_name: 'ANNA MARIA',
  last_name: 'ERIKSSON',
  date_of_birth: '1990-04-01',
  expiry_date: '2030-04-15',
  document_number: 'L898902C3',
  issuing_jurisdiction: 'CA',
};
/** The device's MRZ, as `PUT /v1/verify/details` stores it (`YYMMDD` dates are also accepted). */
const DEVICE_MRZ = { ...READ_MRZ, date_of_birth: '900401', expiry_date: '300415' };

describe('data_consistency: sources', () => {
  it('compares the typed details with the MRZ the server read', () => {
    assert.deepEqual(check(passportEvidence()), {
      type: 'data_consistency',
      status: 'passed',
      reason_codes: [],
      details: { sources: ['typed', 'mrz'] },
    });
  });

  it('compares typed, barcode and MRZ together, naming the disagreeing fields only', () => {
    const document = passportEvidence(
      passportReading({ barcode: { ...BARCODE, date_of_birth: '1991-04-01' } }),
    );
    const result = check(document);
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['data_mismatch']);
    assert.deepEqual(result.details, { sources: ['typed', 'barcode', 'mrz'], fields: ['date_of_birth'] });
    assert.deepEqual(sourceDisagreements(documentSources(document).sources), [
      { pair: ['typed', 'barcode'], fields: ['date_of_birth'] },
      { pair: ['barcode', 'mrz'], fields: ['date_of_birth'] },
    ]);
  });

  it('compares the MRZ and the barcode when nothing was typed', () => {
    const document = { ...passportEvidence(passportReading({ barcode: BARCODE })), details: undefined };
    assert.deepEqual(check(document).details, { sources: ['barcode', 'mrz'] });
  });

  it('prefers the server reading of the MRZ over the device MRZ', () => {
    const document = { ...passportEvidence(), mrz: { ...DEVICE_MRZ, last_name: 'ANDERSSON' } };
    assert.equal(check(document).status, 'passed');
  });

  it('falls back on the device MRZ when the server read none', () => {
    const document = { ...passportEvidence(null), mrz: DEVICE_MRZ };
    assert.deepEqual(check(document).details, { sources: ['typed', 'mrz'] });
    const typo = { ...document, details: { ...TYPED, document_number: 'L898902C4' } };
    assert.deepEqual(check(typo).details, { sources: ['typed', 'mrz'], fields: ['document_number'] });
  });

  it('leaves out an MRZ whose check digits fail, and says so', () => {
    const misread = passportReading({
      mrz: { ...READ_MRZ, check_digits_valid: false, date_of_birth: '1980-04-01' },
    });
    assert.deepEqual(check(passportEvidence(misread)).details, {
      cause: 'mrz_check_digits_invalid',
      sources: ['typed'],
      unverified_mrz: true,
    });
    const withBarcode = passportReading({ ...misread, barcode: BARCODE });
    assert.deepEqual(check(passportEvidence(withBarcode)), {
      type: 'data_consistency',
      status: 'passed',
      reason_codes: [],
      details: { sources: ['typed', 'barcode'], unverified_mrz: true },
    });
  });

  it('does not count a date the barcode could not read as a disagreement', () => {
    const document = passportEvidence(passportReading({ barcode: { ...BARCODE, expiry_date: null } }));
    assert.equal(check(document).status, 'passed');
  });

  it('is inconclusive with a single source', () => {
    assert.deepEqual(check(passportEvidence(passportReading({ mrz: null }))).details, {
      cause: 'mrz_missing',
      sources: ['typed'],
    });
    const readOnly = { ...passportEvidence(passportReading({ barcode: null })), details: undefined };
    assert.deepEqual(check(readOnly).details, { cause: 'evidence_missing', sources: ['mrz'] });
    assert.deepEqual(check(undefined).details, { cause: 'evidence_missing' });
  });

  it('passes on a verified MRZ alone when the details are the document’s own (nothing typed)', () => {
    const reading = passportReading({ barcode: null });
    const document: IdDocumentEvidence = {
      ...passportEvidence(reading),
      details: TYPED,
      details_source: 'mrz',
    };
    const result = check(document);
    assert.equal(result.status, 'passed');
    assert.deepEqual(result.details, { sources: ['mrz'], single_source: true });
    // The same details said to be typed are a second source of their own.
    assert.deepEqual(check({ ...document, details_source: 'typed' }).details, { sources: ['typed', 'mrz'] });
    // An MRZ whose check digits fail is no source at all, so nothing passes.
    const misread = passportReading({ barcode: null, mrz: { ...READ_MRZ, check_digits_valid: false } });
    assert.equal(check({ ...document, reading: misread }).status, 'inconclusive');
  });
});
