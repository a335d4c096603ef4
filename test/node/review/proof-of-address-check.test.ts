import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkProofOfAddress } from '../../../server/domain/review/proof-of-address-check.ts';
import type { ReviewEvidence, ReviewPolicy } from '../../../server/domain/review/review-input.ts';
import {
  GOOD,
  inputWith,
  passportEvidence,
  passportReading,
  READ_MRZ,
  TYPED,
  utilityBill,
} from './vision-evidence.ts';

const BILL =
  'Nordic Power AB\nMrs Anna Eriksson\nStorgatan 12, Stockholm\nInvoice date: 12 March 2026\nDue 15 April 2026';

const check = (evidence: ReviewEvidence, policy: ReviewPolicy = {}) =>
  checkProofOfAddress(inputWith(evidence, policy));

describe('proof_of_address check', () => {
  it("passes a recent bill in the name the document's MRZ gives, reporting flags only", () => {
    const result = check({ id_document: passportEvidence(), proof_of_address: utilityBill(BILL) });
    assert.deepEqual(result, {
      type: 'proof_of_address',
      status: 'passed',
      reason_codes: [],
      details: {
        name_source: 'mrz',
        name_found: true,
        issue_date_found: true,
        within_window: true,
        max_age_days: 92,
        ocr_confidence: 0.88,
        engine: 'models',
        models: ['tesseract@7.0.0-eng-best-int'],
      },
    });
    assert.doesNotMatch(JSON.stringify(result), /Eriksson|2026-03-12|Storgatan/i);
  });

  it('prefers the MRZ name over the typed one', () => {
    const typedOther = { ...passportEvidence(), details: { ...TYPED, first_name: 'Karin' } };
    assert.equal(check({ id_document: typedOther, proof_of_address: utilityBill(BILL) }).status, 'passed');
  });

  it('uses the typed name when the document gave none', () => {
    const document = passportEvidence(passportReading({ mrz: { ...READ_MRZ, check_digits_valid: false } }));
    const result = check({ id_document: document, proof_of_address: utilityBill(BILL) });
    assert.equal(result.details?.['name_source'], 'typed');
    assert.equal(result.status, 'passed');
  });

  it("is inconclusive for someone else's bill", () => {
    const result = check({
      id_document: passportEvidence(),
      proof_of_address: utilityBill(BILL.replace('Anna', 'Karin')),
    });
    assert.equal(result.status, 'inconclusive');
    assert.equal(result.details?.['cause'], 'name_not_found');
  });

  it('is inconclusive for a bill without a date, or an old one', () => {
    const undated = check({
      id_document: passportEvidence(),
      proof_of_address: utilityBill('Anna Eriksson, Storgatan 12'),
    });
    assert.equal(undated.details?.['cause'], 'issue_date_not_found');
    const old = check(
      { id_document: passportEvidence(), proof_of_address: utilityBill(BILL) },
      { proof_of_address_max_age_days: 14 },
    );
    assert.equal(old.details?.['cause'], 'issue_date_outside_window');
    assert.equal(old.details?.['max_age_days'], 14);
  });

  it('is inconclusive without a reading, a reference name or the document', () => {
    const unread = { document_type: 'utility_bill', images: [{ side: 'front' as const, quality: GOOD }] };
    assert.deepEqual(check({ id_document: passportEvidence(), proof_of_address: unread }).details, {
      cause: 'model_unavailable',
    });
    assert.deepEqual(check({ proof_of_address: utilityBill(BILL) }).details, {
      cause: 'evidence_missing',
      missing: 'reference_name',
    });
    assert.deepEqual(check({ id_document: passportEvidence() }).details, { cause: 'evidence_missing' });
  });
});
