import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHECK_STATUSES, CHECK_TYPES } from '../../../server/domain/review/checks.ts';
import {
  isReasonCode,
  REASON_CATALOGUE,
  REASON_CODES,
  reasonFor,
} from '../../../server/domain/review/reasons.ts';
import { DECISIONS } from '../../../server/domain/review/review-result.ts';

describe('review vocabulary matches API.md §5', () => {
  it('lists exactly the contract reason codes', () => {
    assert.deepEqual(REASON_CODES, [
      'document_expired',
      'document_unreadable',
      'document_type_not_supported',
      'document_tampered',
      'data_mismatch',
      'underage',
      'liveness_failed',
      'face_mismatch',
      'face_match_uncertain',
      'duplicate_identity',
      'watchlist_hit',
      'attempts_exhausted',
      'manual_rejection',
      'sandbox_forced',
    ]);
  });

  it('lists exactly the contract check types, statuses and decisions', () => {
    assert.deepEqual(CHECK_TYPES, [
      'consent',
      'document_quality',
      'document_authenticity',
      'document_expiry',
      'data_consistency',
      'age',
      'liveness',
      'face_match',
      'duplicate_detection',
      'watchlist',
      'proof_of_address',
      'business_registry',
    ]);
    assert.deepEqual(CHECK_STATUSES, ['passed', 'failed', 'inconclusive', 'not_performed']);
    assert.deepEqual(DECISIONS, ['approved', 'rejected', 'review_required']);
  });
});

describe('reason catalogue', () => {
  for (const code of REASON_CODES) {
    it(`gives ${code} a tenant message and a different end-user message`, () => {
      const reason = reasonFor(code);
      assert.equal(reason.code, code);
      assert.ok(reason.message.length > 10);
      assert.ok(reason.user_message.length > 10);
      assert.notEqual(reason.message, reason.user_message);
    });
  }

  // Telling the end-user about screening or fraud suspicion is tipping-off.
  const confidential = [
    'watchlist_hit',
    'duplicate_identity',
    'document_tampered',
    'face_mismatch',
    'face_match_uncertain',
    'manual_rejection',
  ] as const;
  for (const code of confidential) {
    it(`never reveals the internal reason of ${code} to the end-user`, () => {
      assert.doesNotMatch(
        REASON_CATALOGUE[code].user_message,
        /watchlist|sanction|pep|duplicate|another|fraud|tamper|forg|face|review|reject/i,
      );
    });
  }

  it('recognises known codes and refuses anything else', () => {
    assert.equal(isReasonCode('underage'), true);
    assert.equal(isReasonCode('too_young'), false);
    assert.equal(isReasonCode('UNDERAGE'), false);
    assert.equal(isReasonCode(42), false);
    assert.equal(isReasonCode(undefined), false);
  });
});
