import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAamva } from '../../../server/domain/aamva.ts';
import {
  ASPECT_RATIO_TOLERANCE,
  checkDocumentAuthenticity,
  MRZ_TAMPER_MIN_CONFIDENCE,
} from '../../../server/domain/review/document-authenticity-check.ts';
import type {
  DocumentReadingEvidence,
  IdDocumentEvidence,
  ReviewPolicy,
} from '../../../server/domain/review/review-input.ts';
import { GOOD, inputWith, passportEvidence, passportReading, READ_MRZ, TYPED } from './vision-evidence.ts';

const check = (document: IdDocumentEvidence | undefined, policy: ReviewPolicy = {}) =>
  checkDocumentAuthenticity(inputWith(document === undefined ? {} : { id_document: document }, policy));
const checkReading = (overrides: Partial<DocumentReadingEvidence>, policy: ReviewPolicy = {}) =>
  check(passportEvidence(passportReading(overrides)), policy);

const ALL_CHECKS = [
  'machine_readable_data',
  'mrz_check_digits',
  'sources_agree',
  'portrait_face',
  'layout_aspect_ratio',
];

/** A US licence: no MRZ, a PDF417 barcode on the back, ID-1 proportions. */
const LICENCE_BARCODE = parseAamva(
  '@\n\x1e\rANSI 636014090001DL00310067DLDAQD1234567\nDCSSAMPLE\nDACJANE\nDADQ\nDBB04011990\nDBA04012030\nDAJCA\r',
)!;
function licence(reading: Partial<DocumentReadingEvidence> = {}, details = {}): IdDocumentEvidence {
  return {
    document_type: 'driving_licence',
    images: [
      { side: 'front', quality: GOOD },
      { side: 'back', quality: GOOD },
    ],
    details: {
      first_name: 'Jane',
      last_name: 'Sample',
      date_of_birth: '1990-04-01',
      document_number: 'D1234567',
      expiry_date: '2030-04-01',
      ...details,
    },
    reading: passportReading({
      mrz: null,
      barcode: LICENCE_BARCODE,
      layout: { found: true, aspect_ratio: 1.6, deskew_degrees: 0 },
      ...reading,
    }),
  };
}

describe('document_authenticity: offline checks', () => {
  it('passes a passport whose offline checks all pass, saying what was and was not done', () => {
    const result = check(passportEvidence());
    assert.equal(result.status, 'passed');
    assert.deepEqual(result.details, {
      method: ALL_CHECKS,
      forensics: 'not_performed',
      engine: 'models',
      models: ['human-blazeface@3.3.6', 'dlib-resnet-v1@face-api-1.7.15'],
    });
  });

  it('passes a US driving licence on its barcode, without an MRZ', () => {
    const result = check(licence());
    assert.equal(result.status, 'passed');
    assert.deepEqual(result.details?.['method'], [
      'machine_readable_data',
      'sources_agree',
      'portrait_face',
      'layout_aspect_ratio',
    ]);
  });

  it('passes a document photographed in portrait orientation, and a ghost image beside the portrait', () => {
    assert.equal(
      checkReading({ layout: { found: true, aspect_ratio: 1 / 1.42, deskew_degrees: 90 } }).status,
      'passed',
    );
    assert.equal(checkReading({ portrait_faces: 2 }).status, 'passed');
  });

  it('uses the MRZ format for the expected shape: a TD1 card is wider than a passport page', () => {
    const card = { ...READ_MRZ, format: 'TD1' as const };
    assert.equal(
      checkReading({ mrz: card, layout: { found: true, aspect_ratio: 1.58, deskew_degrees: 0 } }).status,
      'passed',
    );
    assert.equal(checkReading({ mrz: card }).status, 'inconclusive');
  });

  const incomplete: Array<[string, Partial<DocumentReadingEvidence>, string[]]> = [
    [
      'no outline found',
      { layout: { found: false, aspect_ratio: 1.33, deskew_degrees: 0 } },
      ['layout_aspect_ratio'],
    ],
    [
      `a shape beyond ${ASPECT_RATIO_TOLERANCE * 100} % of the format`,
      { layout: { found: true, aspect_ratio: 1.586, deskew_degrees: 0 } },
      ['layout_aspect_ratio'],
    ],
    ['no face on the document', { portrait_faces: 0, portrait_face_width: 0 }, ['portrait_face']],
    ['three faces', { portrait_faces: 3 }, ['portrait_face']],
    ['a passport without a readable MRZ', { mrz: null }, ['machine_readable_data']],
    [
      'check digits failing on a zone read with modest confidence',
      { mrz: { ...READ_MRZ, check_digits_valid: false }, mrz_confidence: 0.8 },
      ['machine_readable_data', 'mrz_check_digits'],
    ],
    [
      'check digits failing and no confidence reported',
      { mrz: { ...READ_MRZ, check_digits_valid: false }, mrz_confidence: undefined },
      ['machine_readable_data', 'mrz_check_digits'],
    ],
  ];
  for (const [label, reading, unmet] of incomplete) {
    it(`is inconclusive, not failed, with ${label}`, () => {
      const result = checkReading(reading);
      assert.equal(result.status, 'inconclusive');
      assert.equal(result.details?.['cause'], 'offline_checks_incomplete');
      assert.deepEqual(result.details?.['unmet'], unmet);
      assert.equal(result.details?.['forensics'], 'not_performed');
    });
  }

  it('is inconclusive when the typed details disagree with the MRZ: that is data_consistency, not forgery', () => {
    const result = check({ ...passportEvidence(), details: { ...TYPED, date_of_birth: '1991-04-01' } });
    assert.equal(result.status, 'inconclusive');
    assert.deepEqual(result.details?.['unmet'], ['sources_agree']);
  });

  it('is inconclusive for an EU driving licence with neither MRZ nor barcode', () => {
    const result = check(licence({ barcode: null }));
    assert.equal(result.status, 'inconclusive');
    assert.deepEqual(result.details?.['unmet'], ['machine_readable_data']);
  });
});

describe('document_authenticity: tampering', () => {
  it('fails with document_tampered when check digits fail in a zone read with high confidence', () => {
    const result = checkReading({
      mrz: { ...READ_MRZ, check_digits_valid: false },
      mrz_confidence: MRZ_TAMPER_MIN_CONFIDENCE,
    });
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['document_tampered']);
    assert.equal(result.details?.['evidence'], 'mrz_check_digits_invalid');
  });

  it('fails with document_tampered when a verified MRZ and the barcode disagree', () => {
    const mrz = {
      ...READ_MRZ,
      format: 'TD1' as const,
      first_name: 'JANE Q',
      last_name: 'SAMPLE',
      document_number: 'D1234567',
      expiry_date: '2030-04-01',
    };
    const agreeing = licence({ mrz });
    assert.equal(check({ ...agreeing, details: undefined }).status, 'passed');
    const altered = licence({ mrz: { ...mrz, date_of_birth: '1980-04-01' } });
    const result = check({ ...altered, details: undefined });
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['document_tampered']);
    assert.deepEqual(
      [result.details?.['evidence'], result.details?.['fields']],
      ['mrz_barcode_disagree', ['date_of_birth']],
    );
  });

  it('does not treat a device-supplied MRZ against the barcode as tampering', () => {
    const deviceMrz = { ...READ_MRZ, first_name: 'JANE', last_name: 'SAMPLE', document_number: 'X999' };
    const result = check({ ...licence(), mrz: deviceMrz });
    assert.notEqual(result.status, 'failed');
  });

  it('still fails on evidence of tampering when the tenant wants a manual review', () => {
    const result = checkReading(
      { mrz: { ...READ_MRZ, check_digits_valid: false }, mrz_confidence: 0.99 },
      { document_authenticity: 'manual_review' },
    );
    assert.deepEqual(result.reason_codes, ['document_tampered']);
  });
});

describe('document_authenticity: policy and missing evidence', () => {
  it('stays inconclusive with manual_review, the offline results in details', () => {
    const result = check(passportEvidence(), { document_authenticity: 'manual_review' });
    assert.equal(result.status, 'inconclusive');
    assert.deepEqual(result.details, {
      cause: 'forensics_unavailable',
      method: ALL_CHECKS,
      forensics: 'not_performed',
      engine: 'models',
      models: ['human-blazeface@3.3.6', 'dlib-resnet-v1@face-api-1.7.15'],
      unmet: [],
    });
  });

  it('is model_unavailable without a reading and evidence_missing without a document', () => {
    assert.deepEqual(check(passportEvidence(null)).details, { cause: 'model_unavailable' });
    assert.deepEqual(check(undefined).details, { cause: 'evidence_missing' });
  });
});
