import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeLiveness, LIVENESS_THRESHOLDS } from '../../../server/domain/liveness-judgement.ts';
import { checkLiveness } from '../../../server/domain/review/liveness-check.ts';
import type { ReviewEvidence } from '../../../server/domain/review/review-input.ts';
import { analysis, face } from '../domain/vision-fixtures.ts';
import { CHALLENGE, GENUINE_FRAMES, genuineJudgement, inputWith } from './vision-evidence.ts';

const check = (liveness: ReviewEvidence['liveness']) =>
  checkLiveness(inputWith(liveness === undefined ? {} : { liveness }));

describe('liveness check', () => {
  it('passes an accepted attempt whose every action was performed, with per-action results', () => {
    const result = check({ accepted: true, judgement: genuineJudgement() });
    assert.equal(result.status, 'passed');
    assert.deepEqual(result.details, {
      zone: 'live',
      zone_reason:
        'Every prompted action was performed: turn_left performed (yaw -24), smile performed (smile 0.9), blink performed (eyes_open 0.1).',
      actions: ['turn_left', 'smile', 'blink'],
      outcomes: ['performed', 'performed', 'performed'],
      turn_left_yaw: -24,
      smile_score: 0.9,
      blink_eyes_open: 0.1,
      passive_antispoofing: 'not_performed',
      ...LIVENESS_THRESHOLDS,
    });
  });

  it('fails a replayed still with liveness_failed and the failing outcome', () => {
    const still = analysis([face({ yaw: -24, smile: 0.9 })]);
    const judgement = judgeLiveness(CHALLENGE, [still, still, still]);
    const result = check({ accepted: false, judgement });
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.reason_codes, ['liveness_failed']);
    assert.equal(result.details?.['failure'], 'not_performed');
    assert.deepEqual(result.details?.['outcomes'], ['not_performed', 'not_performed', 'not_performed']);
    assert.equal(result.details?.['zone'], 'not_live');
    assert.equal(
      result.details?.['zone_reason'],
      'Not every prompted action was performed (not performed): turn_left not performed (yaw -24), smile not performed (smile 0.9), blink not performed (eyes_open 0.85).',
    );
  });

  it('trusts the judgement over an attempt marked accepted', () => {
    const judgement = judgeLiveness(CHALLENGE, [GENUINE_FRAMES[0]!, analysis([]), GENUINE_FRAMES[2]!]);
    const result = check({ accepted: true, judgement });
    assert.equal(result.status, 'failed');
    assert.equal(result.details?.['failure'], 'no_face');
  });

  it('fails a rejected attempt even when every action was performed (e.g. the nonce expired)', () => {
    const result = check({ accepted: false, judgement: genuineJudgement() });
    assert.equal(result.status, 'failed');
    assert.equal(result.details?.['failure'], 'attempt_rejected');
  });

  it('fails a rejected attempt without judgement', () => {
    assert.deepEqual(check({ accepted: false }), {
      type: 'liveness',
      status: 'failed',
      reason_codes: ['liveness_failed'],
      details: {
        zone: 'not_live',
        zone_reason: 'The liveness attempt was refused before the face models judged it.',
      },
    });
  });

  it('stays inconclusive for an accepted attempt that no engine judged', () => {
    assert.deepEqual(check({ accepted: true }).details, {
      cause: 'model_unavailable',
      frames_accepted: true,
      zone: 'uncertain',
      zone_reason: 'The frames answered the challenge, but no face model judged them; a person should look.',
    });
  });

  it('is inconclusive without an attempt', () => {
    assert.deepEqual(check(undefined).details, { cause: 'evidence_missing' });
  });

  it('keeps identity scores and embeddings out of the details', () => {
    const details = JSON.stringify(check({ accepted: true, judgement: genuineJudgement() }).details);
    assert.doesNotMatch(details, /identity|embedding/);
  });
});
