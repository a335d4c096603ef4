import type { Schemas } from '../../../../server/web/console/api/console-api.ts';

type Check = Schemas['SessionResult']['checks'][number];

/**
 * The checks of a session the automated review sent to a person, with the details the server's review
 * writes (server/domain/review/*-check.ts): long method lists, parallel string arrays of frame scores,
 * one-sentence zone reasons and several reason codes. The shapes that made the review screen 9,040 px
 * tall (issue 25): the fake backend's default checks are short and hid it.
 */
export const REALISTIC_CHECKS: Check[] = [
  { type: 'consent', status: 'passed', reason_codes: [], details: { version: '2024-05' } },
  {
    type: 'document_quality',
    status: 'passed',
    reason_codes: [],
    details: { sharpness: 0.8231, glare_ratio: 0.0132, brightness: 0.61, issues: [] },
  },
  {
    type: 'document_authenticity',
    status: 'inconclusive',
    reason_codes: ['document_unreadable', 'data_mismatch'],
    details: {
      method: [
        'machine_readable_data',
        'mrz_check_digits',
        'sources_agree',
        'portrait_single_face',
        'aspect_ratio',
      ],
      forensics: 'not_performed',
      mrz_check_digits: true,
      mrz_format: 'TD3',
    },
  },
  { type: 'document_expiry', status: 'passed', reason_codes: [], details: { days_remaining: 2190 } },
  {
    type: 'data_consistency',
    status: 'failed',
    reason_codes: ['data_mismatch'],
    details: { sources: ['typed', 'mrz'], fields: ['date_of_birth', 'document_number'] },
  },
  { type: 'age', status: 'passed', reason_codes: [], details: { minimum_age: 18, meets_minimum: true } },
  {
    type: 'liveness',
    status: 'passed',
    reason_codes: [],
    details: {
      zone: 'live',
      zone_reason:
        'Every prompted action was performed: turn_left performed (yaw -24.1), smile performed (smile 0.91), blink performed (eyes closed 0.82).',
      actions: ['turn_left', 'smile', 'blink'],
      outcomes: ['performed', 'performed', 'performed'],
      turn_left_yaw: -24.1,
      smile_score: 0.91,
      blink_closed: 0.82,
      passive_antispoofing: 'not_performed',
      turn_yaw_degrees: 15,
      smile_threshold: 0.6,
    },
  },
  {
    type: 'face_match',
    status: 'inconclusive',
    reason_codes: ['face_match_uncertain'],
    details: {
      score: 0.5712,
      zone: 'uncertain',
      zone_reason:
        'Unsure: the face is 0.5712 from the reference over 3 frames, between the match limit 0.55 and the mismatch limit 0.62; a person should compare them.',
      match_threshold: 0.55,
      mismatch_threshold: 0.62,
      frames_used: ['0', '2', '4'],
      frame_scores: ['0.5523', '0.5611', '0.6002'],
      metric: 'euclidean_weighted_mean',
      model: 'face-embedding-mobilefacenet-v2',
    },
  },
  { type: 'duplicate_detection', status: 'passed', reason_codes: [], details: { candidates_compared: 1423 } },
  {
    type: 'watchlist',
    status: 'passed',
    reason_codes: [],
    details: { source: 'sample', entries_compared: 40 },
  },
];
