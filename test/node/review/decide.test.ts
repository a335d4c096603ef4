import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENVIRONMENTS, type Environment } from '../../../server/domain/api-key-format.ts';
import { CHECK_TYPES, type Check, type CheckType } from '../../../server/domain/review/checks.ts';
import { judgeLiveness } from '../../../server/domain/liveness-judgement.ts';
import { decide } from '../../../server/domain/review/decide.ts';
import { REASON_CATALOGUE, type ReasonCode } from '../../../server/domain/review/reasons.ts';
import type {
  ConfirmedDetails,
  DocumentReadingEvidence,
  ParsedMrz,
  ReviewEvidence,
  ReviewInput,
  ReviewPolicy,
  ReviewSession,
} from '../../../server/domain/review/review-input.ts';
import type { ReviewResult } from '../../../server/domain/review/review-result.ts';
import { type Flow, requiredSteps, type StepName, type Tier } from '../../../server/domain/session-steps.ts';
import { analysis, face, PERSON_A, PERSON_B, ZONED_DLIB_SPACE } from '../domain/vision-fixtures.ts';
import {
  CHALLENGE,
  genuineFaceMatch,
  genuineJudgement,
  passportReading,
  utilityBill,
} from './vision-evidence.ts';

// ---- Scenario builder: clean evidence for every step, then one deliberate change per test. ----

const NOW = new Date('2025-06-15T12:00:00Z');
const GOOD = { ok: true, issues: [] };

const DETAILS: ConfirmedDetails = {
  first_name: 'Anna Maria',
  last_name: 'Eriksson',
  date_of_birth: '1990-04-01',
  document_number: 'L898902C3',
  expiry_date: '2030-04-15',
};
const MRZ: ParsedMrz = {
  first_name: 'ANNA MARIA',
  last_name: 'ERIKSSON',
  date_of_birth: '900401',
  document_number: 'L898902C3',
  expiry_date: '300415',
  check_digits_valid: true,
};

function cleanEvidence(): ReviewEvidence {
  return {
    consent: { accepted: true },
    id_document: {
      document_type: 'passport',
      images: [{ side: 'front', quality: GOOD }],
      details: DETAILS,
      mrz: MRZ,
    },
    liveness: { accepted: true },
    proof_of_address: { document_type: 'utility_bill', images: [{ side: 'front', quality: GOOD }] },
    business_details: { legal_name: 'Acme AB', registration_number: '556000-0000', jurisdiction: 'SWE' },
    business_document: {
      document_type: 'registration_certificate',
      images: [{ side: 'front', quality: GOOD }],
    },
    duplicates: { document_number_used_by_other_reference: false, image_reused_in_other_session: false },
    watchlist: { hits: [] },
  };
}

interface Scenario {
  flow?: Flow;
  tier?: Tier;
  steps?: StepName[];
  environment?: Environment;
  now?: Date;
  policy?: ReviewPolicy;
  sandbox?: ReviewSession['sandbox'];
  /** Replaces whole members of the clean evidence; `undefined` removes one. */
  evidence?: Partial<ReviewEvidence>;
  /** Changes the typed details only (the MRZ keeps its values). */
  details?: Partial<ConfirmedDetails>;
  /** Changes the MRZ only; `null` removes it. */
  mrz?: Partial<ParsedMrz> | null;
  /** What the engine read off the ID document; absent: no engine ran. */
  reading?: DocumentReadingEvidence;
  /** Changes a date consistently in the details and the MRZ. */
  dateOfBirth?: string;
  expiryDate?: string;
}

const yymmdd = (iso: string) => iso.replaceAll('-', '').slice(2);

function inputFor(scenario: Scenario = {}): ReviewInput {
  const flow = scenario.flow ?? 'user';
  const tier = scenario.tier ?? 'tier1';
  const dates = {
    ...(scenario.dateOfBirth === undefined ? {} : { date_of_birth: scenario.dateOfBirth }),
    ...(scenario.expiryDate === undefined ? {} : { expiry_date: scenario.expiryDate }),
  };
  const mrzDates = Object.fromEntries(Object.entries(dates).map(([field, iso]) => [field, yymmdd(iso)]));
  const clean = cleanEvidence();
  const idDocument = {
    ...clean.id_document!,
    details: { ...DETAILS, ...dates, ...scenario.details },
    mrz: scenario.mrz === null ? undefined : { ...MRZ, ...mrzDates, ...scenario.mrz },
    ...(scenario.reading === undefined ? {} : { reading: scenario.reading }),
  };
  return {
    session: {
      flow,
      tier,
      required_steps: scenario.steps ?? requiredSteps(flow, tier),
      ...(scenario.sandbox === undefined ? {} : { sandbox: scenario.sandbox }),
    },
    evidence: { ...clean, id_document: idDocument, ...scenario.evidence },
    policy: scenario.policy ?? {},
    environment: scenario.environment ?? 'sandbox',
    now: scenario.now ?? NOW,
  };
}

const review = (scenario: Scenario = {}): ReviewResult => decide(inputFor(scenario));

function checkOf(result: ReviewResult, type: CheckType): Check {
  const check = result.checks.find((candidate) => candidate.type === type);
  assert.ok(check, `result lists the ${type} check`);
  return check;
}

const reasonCodes = (result: ReviewResult) => result.reasons.map((reason) => reason.code);

function assertRejected(result: ReviewResult, codes: ReasonCode[], retryable: boolean) {
  assert.equal(result.decision, 'rejected');
  assert.deepEqual(reasonCodes(result), codes);
  assert.equal(result.retryable, retryable);
}

const performedTypes = (result: ReviewResult) =>
  result.checks.filter((check) => check.status !== 'not_performed').map((check) => check.type);

// ---- Which checks run ----

describe('review: which checks are performed', () => {
  const identity: CheckType[] = [
    'consent',
    'document_quality',
    'document_authenticity',
    'document_expiry',
    'data_consistency',
    'age',
    'duplicate_detection',
  ];
  const cases: Array<[Flow, Tier, CheckType[]]> = [
    ['user', 'tier1', identity],
    ['user', 'tier2', [...identity, 'liveness', 'face_match']],
    ['user', 'tier3', [...identity, 'liveness', 'face_match', 'watchlist', 'proof_of_address']],
    ['business', 'tier1', [...identity, 'business_registry']],
    ['business', 'tier2', [...identity, 'liveness', 'face_match', 'business_registry']],
    [
      'business',
      'tier3',
      [...identity, 'liveness', 'face_match', 'watchlist', 'proof_of_address', 'business_registry'],
    ],
  ];
  for (const [flow, tier, expected] of cases) {
    it(`performs exactly the ${flow} ${tier} checks and marks the others not_performed`, () => {
      const result = review({ flow, tier });
      assert.deepEqual(
        result.checks.map((check) => check.type),
        CHECK_TYPES,
      );
      assert.deepEqual(
        performedTypes(result),
        CHECK_TYPES.filter((type) => expected.includes(type)),
      );
      for (const check of result.checks.filter((candidate) => candidate.status === 'not_performed')) {
        assert.deepEqual(check.reason_codes, []);
      }
    });
  }

  it('performs only consent, liveness, face_match and duplicate_detection for a biometric re-verification', () => {
    const result = review({ tier: 'tier2', steps: ['consent', 'liveness'] });
    assert.deepEqual(performedTypes(result), ['consent', 'liveness', 'face_match', 'duplicate_detection']);
  });
});

// ---- Clean sessions: the honesty rule ----

describe('review: clean evidence', () => {
  for (const [flow, tier] of [
    ['user', 'tier1'],
    ['user', 'tier3'],
    ['business', 'tier1'],
    ['business', 'tier3'],
  ] as const) {
    it(`approves a clean ${flow} ${tier} session in the sandbox despite inconclusive checks`, () => {
      const result = review({ flow, tier });
      assert.equal(result.decision, 'approved');
      assert.deepEqual(result.reasons, []);
      assert.equal(result.retryable, false);
    });

    it(`asks for review of a clean ${flow} ${tier} session in production, with no invented reason`, () => {
      const result = review({ flow, tier, environment: 'production' });
      assert.equal(result.decision, 'review_required');
      assert.deepEqual(result.reasons, []);
      assert.equal(result.retryable, false);
    });
  }

  it('reports the decidable checks of a clean tier3 session as passed', () => {
    const result = review({ tier: 'tier3', environment: 'production' });
    for (const type of [
      'consent',
      'document_quality',
      'document_expiry',
      'data_consistency',
      'age',
    ] as const) {
      assert.equal(checkOf(result, type).status, 'passed', type);
    }
    assert.equal(checkOf(result, 'duplicate_detection').status, 'passed');
    assert.equal(checkOf(result, 'watchlist').status, 'passed');
  });

  // Never pretend a check ran (API.md §5): without the engine's evidence, model checks are undecided.
  const pending: Array<[CheckType, Flow, Tier]> = [
    ['document_authenticity', 'user', 'tier1'],
    ['face_match', 'user', 'tier2'],
    ['proof_of_address', 'user', 'tier3'],
    ['business_registry', 'business', 'tier1'],
  ];
  for (const [type, flow, tier] of pending) {
    it(`reports ${type} as inconclusive when no engine ran (or, for the registry, none exists)`, () => {
      const check = checkOf(review({ flow, tier }), type);
      assert.equal(check.status, 'inconclusive');
      assert.deepEqual(check.details, { cause: 'model_unavailable' });
    });
  }

  it('reports accepted liveness frames that no engine judged as inconclusive, not passed', () => {
    const check = checkOf(review({ tier: 'tier2' }), 'liveness');
    assert.equal(check.status, 'inconclusive');
    assert.deepEqual(check.details, {
      cause: 'model_unavailable',
      frames_accepted: true,
      zone: 'uncertain',
      zone_reason: 'The frames answered the challenge, but no face model judged them; a person should look.',
    });
  });

  const missingEvidence: Array<[CheckType, keyof ReviewEvidence, Flow, Tier]> = [
    ['face_match', 'liveness', 'user', 'tier2'],
    ['liveness', 'liveness', 'user', 'tier2'],
    ['proof_of_address', 'proof_of_address', 'user', 'tier3'],
    ['business_registry', 'business_details', 'business', 'tier1'],
    ['document_authenticity', 'id_document', 'user', 'tier1'],
    ['document_quality', 'id_document', 'user', 'tier1'],
    ['document_expiry', 'id_document', 'user', 'tier1'],
    ['data_consistency', 'id_document', 'user', 'tier1'],
    ['age', 'id_document', 'user', 'tier1'],
  ];
  for (const [type, member, flow, tier] of missingEvidence) {
    it(`reports ${type} as inconclusive when the ${member} evidence is missing`, () => {
      const check = checkOf(review({ flow, tier, evidence: { [member]: undefined } }), type);
      assert.equal(check.status, 'inconclusive');
      assert.equal(check.details?.['cause'], 'evidence_missing');
    });
  }

  it('asks for review in production, and approves in the sandbox, when steps were completed without evidence', () => {
    const evidence = { id_document: undefined, duplicates: undefined };
    assert.equal(review({ evidence, environment: 'production' }).decision, 'review_required');
    assert.equal(review({ evidence }).decision, 'approved');
  });
});

// ---- One describe per check ----

describe('review: consent', () => {
  for (const environment of ENVIRONMENTS) {
    it(`rejects a session without recorded consent in ${environment}`, () => {
      const result = review({ environment, evidence: { consent: undefined } });
      assertRejected(result, [], false);
      assert.deepEqual(checkOf(result, 'consent'), {
        type: 'consent',
        status: 'failed',
        reason_codes: [],
        details: { consent: 'missing' },
      });
    });
  }

  it('rejects a session whose consent was refused', () => {
    const result = review({ evidence: { consent: { accepted: false } } });
    assertRejected(result, [], false);
    assert.deepEqual(checkOf(result, 'consent').details, { consent: 'refused' });
  });
});

describe('review: document_quality', () => {
  const blurryFront = {
    document_type: 'passport',
    images: [{ side: 'front' as const, quality: { ok: false, issues: ['blurry' as const] } }],
  };

  for (const environment of ENVIRONMENTS) {
    it(`rejects a blocking quality issue with a retryable document_unreadable in ${environment}`, () => {
      const result = review({
        environment,
        evidence: { id_document: { ...blurryFront, details: DETAILS, mrz: MRZ } },
      });
      assertRejected(result, ['document_unreadable'], true);
      assert.deepEqual(checkOf(result, 'document_quality'), {
        type: 'document_quality',
        status: 'failed',
        reason_codes: ['document_unreadable'],
        details: { unreadable: ['id_document:front'], issues: ['id_document:front:blurry'] },
      });
    });
  }

  it('rejects an id card without its back side as document_unreadable', () => {
    const idCard = {
      document_type: 'id_card',
      images: [{ side: 'front' as const, quality: GOOD }],
      details: DETAILS,
      mrz: MRZ,
    };
    const result = review({ evidence: { id_document: idCard } });
    assertRejected(result, ['document_unreadable'], true);
    assert.deepEqual(checkOf(result, 'document_quality').details, { unreadable: ['id_document:back'] });
  });

  it('judges the latest upload of a side, so a good re-upload replaces a blurry one', () => {
    const images = [blurryFront.images[0]!, { side: 'front' as const, quality: GOOD }];
    const result = review({
      evidence: { id_document: { document_type: 'passport', images, details: DETAILS, mrz: MRZ } },
    });
    assert.equal(checkOf(result, 'document_quality').status, 'passed');
    assert.equal(result.decision, 'approved');
  });

  it('passes a non-blocking quality issue and lists it for the reviewer', () => {
    const images = [{ side: 'front' as const, quality: { ok: true, issues: ['glare' as const] } }];
    const result = review({
      evidence: { id_document: { document_type: 'passport', images, details: DETAILS, mrz: MRZ } },
    });
    assert.deepEqual(checkOf(result, 'document_quality'), {
      type: 'document_quality',
      status: 'passed',
      reason_codes: [],
      details: { issues: ['id_document:front:glare'] },
    });
    assert.equal(result.decision, 'approved');
  });

  for (const environment of ENVIRONMENTS) {
    it(`rejects a document type the tenant does not accept with a retryable document_type_not_supported in ${environment}`, () => {
      const idCard = {
        document_type: 'id_card',
        images: [
          { side: 'front' as const, quality: GOOD },
          { side: 'back' as const, quality: GOOD },
        ],
        details: DETAILS,
        mrz: MRZ,
      };
      const result = review({
        environment,
        policy: { accepted_document_types: ['passport'] },
        evidence: { id_document: idCard },
      });
      assertRejected(result, ['document_type_not_supported'], true);
      assert.deepEqual(checkOf(result, 'document_quality').details, { unsupported: ['id_document'] });
    });
  }

  it('accepts a two-sided id card with both sides when the tenant accepts every type', () => {
    const idCard = {
      document_type: 'id_card',
      images: [
        { side: 'front' as const, quality: GOOD },
        { side: 'back' as const, quality: GOOD },
      ],
      details: DETAILS,
      mrz: MRZ,
    };
    assert.equal(review({ evidence: { id_document: idCard } }).decision, 'approved');
  });

  it('rejects a proof of address that is not an address document as document_type_not_supported', () => {
    const result = review({
      tier: 'tier3',
      evidence: {
        proof_of_address: { document_type: 'passport', images: [{ side: 'front', quality: GOOD }] },
      },
    });
    assertRejected(result, ['document_type_not_supported'], true);
    assert.deepEqual(checkOf(result, 'document_quality').details, { unsupported: ['proof_of_address'] });
  });

  it('rejects an unreadable proof of address as document_unreadable in tier3', () => {
    const bill = {
      document_type: 'utility_bill',
      images: [{ side: 'front' as const, quality: { ok: false, issues: ['too_dark' as const] } }],
    };
    const result = review({ tier: 'tier3', evidence: { proof_of_address: bill } });
    assertRejected(result, ['document_unreadable'], true);
    assert.deepEqual(checkOf(result, 'document_quality').details?.['unreadable'], ['proof_of_address:front']);
  });

  it('ignores proof-of-address evidence in tier1, where it is not required', () => {
    const bill = {
      document_type: 'utility_bill',
      images: [{ side: 'front' as const, quality: { ok: false, issues: [] } }],
    };
    assert.equal(review({ tier: 'tier1', evidence: { proof_of_address: bill } }).decision, 'approved');
  });

  it('rejects an unreadable registration certificate in the business flow', () => {
    const certificate = {
      document_type: 'registration_certificate',
      images: [{ side: 'front' as const, quality: { ok: false, issues: ['no_document' as const] } }],
    };
    const result = review({ flow: 'business', evidence: { business_document: certificate } });
    assertRejected(result, ['document_unreadable'], true);
    assert.deepEqual(checkOf(result, 'document_quality').details?.['unreadable'], [
      'business_document:front',
    ]);
  });

  it('reports both codes when one document is unsupported and another unreadable', () => {
    const bill = { document_type: 'selfie', images: [{ side: 'front' as const, quality: GOOD }] };
    const result = review({
      tier: 'tier3',
      evidence: { proof_of_address: bill, id_document: { ...blurryFront, details: DETAILS, mrz: MRZ } },
    });
    assertRejected(result, ['document_unreadable', 'document_type_not_supported'], true);
  });
});

describe('review: document_expiry', () => {
  for (const environment of ENVIRONMENTS) {
    it(`rejects an expired document with document_expired in ${environment}`, () => {
      const result = review({ environment, expiryDate: '2025-06-14' });
      assertRejected(result, ['document_expired'], false);
      assert.deepEqual(checkOf(result, 'document_expiry').reason_codes, ['document_expired']);
    });
  }

  it('accepts a document that expires today', () => {
    const result = review({ expiryDate: '2025-06-15' });
    assert.equal(checkOf(result, 'document_expiry').status, 'passed');
    assert.equal(result.decision, 'approved');
  });

  it('judges expiry on the UTC date of now, not on a later clock', () => {
    const lateEvening = new Date('2025-06-15T23:59:59Z');
    assert.equal(review({ expiryDate: '2025-06-15', now: lateEvening }).decision, 'approved');
    const nextDay = new Date('2025-06-16T00:00:00Z');
    assert.equal(review({ expiryDate: '2025-06-15', now: nextDay }).decision, 'rejected');
  });

  it('reports an impossible expiry date as inconclusive rather than guessing', () => {
    const check = checkOf(review({ details: { expiry_date: '2030-02-30' }, mrz: null }), 'document_expiry');
    assert.equal(check.status, 'inconclusive');
    assert.deepEqual(check.details, { cause: 'invalid_date', field: 'expiry_date' });
  });
});

describe('review: data_consistency', () => {
  const contradictions: Array<[keyof ConfirmedDetails, string]> = [
    ['first_name', 'Karin'],
    ['last_name', 'Andersson'],
    ['date_of_birth', '1991-04-01'],
    ['document_number', 'L898902C4'],
    ['expiry_date', '2031-04-15'],
  ];
  for (const [field, value] of contradictions) {
    for (const environment of ENVIRONMENTS) {
      it(`rejects a ${field} that contradicts the MRZ with data_mismatch in ${environment}`, () => {
        const result = review({ environment, details: { [field]: value } });
        assertRejected(result, ['data_mismatch'], false);
        assert.deepEqual(checkOf(result, 'data_consistency').details, {
          sources: ['typed', 'mrz'],
          fields: [field],
        });
      });
    }
  }

  it('passes details that match the MRZ up to case, transliteration and layout', () => {
    const result = review({
      details: { first_name: 'anna', last_name: 'Ériksson', document_number: 'L898 902 C3' },
    });
    assert.equal(checkOf(result, 'data_consistency').status, 'passed');
  });

  it('does not reject on an MRZ with invalid check digits: inconclusive, so review in production', () => {
    const scenario: Scenario = {
      details: { date_of_birth: '1991-04-01' },
      mrz: { check_digits_valid: false },
    };
    const check = checkOf(review(scenario), 'data_consistency');
    assert.equal(check.status, 'inconclusive');
    assert.deepEqual(check.details, {
      cause: 'mrz_check_digits_invalid',
      sources: ['typed'],
      unverified_mrz: true,
    });
    assert.equal(review(scenario).decision, 'approved');
    assert.equal(review({ ...scenario, environment: 'production' }).decision, 'review_required');
  });

  it('reports a document without MRZ as inconclusive', () => {
    const check = checkOf(review({ mrz: null }), 'data_consistency');
    assert.equal(check.status, 'inconclusive');
    assert.deepEqual(check.details, { cause: 'mrz_missing', sources: ['typed'] });
  });
});

describe('review: age', () => {
  for (const environment of ENVIRONMENTS) {
    it(`rejects someone a day short of 18 with underage in ${environment}`, () => {
      const result = review({ environment, dateOfBirth: '2007-06-16' });
      assertRejected(result, ['underage'], false);
      assert.deepEqual(checkOf(result, 'age').details, { minimum_age: 18 });
    });
  }

  it('accepts someone who turns 18 today', () => {
    const result = review({ dateOfBirth: '2007-06-15' });
    assert.equal(checkOf(result, 'age').status, 'passed');
    assert.equal(result.decision, 'approved');
  });

  it('treats a 29 February birthday as reached on 1 March in a common year', () => {
    const feb28 = review({ dateOfBirth: '2008-02-29', now: new Date('2026-02-28T12:00:00Z') });
    assertRejected(feb28, ['underage'], false);
    const mar1 = review({ dateOfBirth: '2008-02-29', now: new Date('2026-03-01T00:00:00Z') });
    assert.equal(mar1.decision, 'approved');
  });

  it('treats a 29 February birthday as reached on 29 February in a leap year', () => {
    // An 18th birthday never falls in a leap year, so use a minimum age of 20 (2012 + 20 = 2032).
    const policy = { minimum_age: 20 };
    const expiryDate = '2035-01-01';
    const feb28 = review({
      policy,
      expiryDate,
      dateOfBirth: '2012-02-29',
      now: new Date('2032-02-28T12:00:00Z'),
    });
    assertRejected(feb28, ['underage'], false);
    const feb29 = review({
      policy,
      expiryDate,
      dateOfBirth: '2012-02-29',
      now: new Date('2032-02-29T00:00:00Z'),
    });
    assert.equal(feb29.decision, 'approved');
  });

  it("applies the tenant's minimum age instead of 18", () => {
    const twenty = review({ dateOfBirth: '2005-01-01', policy: { minimum_age: 21 } });
    assertRejected(twenty, ['underage'], false);
    assert.deepEqual(checkOf(twenty, 'age').details, { minimum_age: 21 });
    assert.equal(review({ dateOfBirth: '2009-01-01', policy: { minimum_age: 16 } }).decision, 'approved');
  });

  it('reports a birth date in the future as inconclusive, not as underage', () => {
    const check = checkOf(review({ dateOfBirth: '2030-01-01' }), 'age');
    assert.equal(check.status, 'inconclusive');
    assert.deepEqual(check.details, { cause: 'invalid_date', field: 'date_of_birth' });
  });
});

describe('review: liveness', () => {
  for (const environment of ENVIRONMENTS) {
    it(`rejects a rejected liveness attempt with liveness_failed in ${environment}`, () => {
      const result = review({ environment, tier: 'tier2', evidence: { liveness: { accepted: false } } });
      assertRejected(result, ['liveness_failed'], false);
      assert.equal(checkOf(result, 'liveness').status, 'failed');
    });
  }

  it('does not run liveness in tier1 even if an attempt failed', () => {
    const result = review({ tier: 'tier1', evidence: { liveness: { accepted: false } } });
    assert.equal(checkOf(result, 'liveness').status, 'not_performed');
    assert.equal(result.decision, 'approved');
  });
});

describe('review: duplicate_detection', () => {
  const signals: Array<[string, ReviewEvidence['duplicates']]> = [
    [
      'the document number is used by another user reference',
      { document_number_used_by_other_reference: true, image_reused_in_other_session: false },
    ],
    [
      'an image was reused from another session',
      { document_number_used_by_other_reference: false, image_reused_in_other_session: true },
    ],
  ];
  for (const [label, duplicates] of signals) {
    for (const environment of ENVIRONMENTS) {
      it(`asks for review with duplicate_identity when ${label} in ${environment}`, () => {
        const result = review({ environment, evidence: { duplicates } });
        assert.equal(result.decision, 'review_required');
        assert.deepEqual(reasonCodes(result), ['duplicate_identity']);
        assert.equal(result.retryable, false);
        assert.deepEqual(checkOf(result, 'duplicate_detection'), {
          type: 'duplicate_detection',
          status: 'failed',
          reason_codes: ['duplicate_identity'],
          details: {
            document_number_reused: duplicates!.document_number_used_by_other_reference,
            image_reused: duplicates!.image_reused_in_other_session,
          },
        });
      });
    }
  }

  it('reports a duplicate look-up that did not run as inconclusive', () => {
    const check = checkOf(review({ evidence: { duplicates: undefined } }), 'duplicate_detection');
    assert.equal(check.status, 'inconclusive');
    assert.deepEqual(check.details, { cause: 'lookup_not_run' });
  });

  it('keeps a duplicate user_message neutral', () => {
    const duplicates = {
      document_number_used_by_other_reference: true,
      image_reused_in_other_session: false,
    };
    const [reason] = review({ evidence: { duplicates } }).reasons;
    assert.equal(reason?.user_message, REASON_CATALOGUE.duplicate_identity.user_message);
    assert.doesNotMatch(reason?.user_message ?? '', /duplicate|another|already/i);
  });
});

describe('review: watchlist', () => {
  const hit = { list: 'sanctions', score: 0.93 };

  for (const environment of ENVIRONMENTS) {
    it(`asks for review with watchlist_hit on a tier3 hit in ${environment}`, () => {
      const result = review({
        environment,
        tier: 'tier3',
        evidence: { watchlist: { hits: [hit, { list: 'pep', score: 0.6 }] } },
      });
      assert.equal(result.decision, 'review_required');
      assert.deepEqual(reasonCodes(result), ['watchlist_hit']);
      assert.deepEqual(checkOf(result, 'watchlist'), {
        type: 'watchlist',
        status: 'failed',
        reason_codes: ['watchlist_hit'],
        details: { hits: 2, highest_score: 0.93 },
      });
    });
  }

  it('never tells the end-user about a watchlist hit', () => {
    const result = review({ tier: 'tier3', evidence: { watchlist: { hits: [hit] } } });
    assert.doesNotMatch(result.reasons[0]?.user_message ?? '', /watchlist|sanction|pep/i);
    assert.match(result.reasons[0]?.message ?? '', /watchlist/);
  });

  for (const tier of ['tier1', 'tier2'] as const) {
    it(`does not screen in ${tier}`, () => {
      const result = review({ tier, evidence: { watchlist: { hits: [hit] } } });
      assert.equal(checkOf(result, 'watchlist').status, 'not_performed');
      assert.equal(result.decision, 'approved');
    });
  }

  it("ignores hits scoring below the tenant's threshold", () => {
    const result = review({
      tier: 'tier3',
      policy: { watchlist_min_score: 0.95 },
      evidence: { watchlist: { hits: [hit] } },
    });
    assert.equal(checkOf(result, 'watchlist').status, 'passed');
    assert.equal(result.decision, 'approved');
  });

  it('counts a hit at exactly the threshold, and one without a usable score', () => {
    const atThreshold = review({
      tier: 'tier3',
      policy: { watchlist_min_score: 0.93 },
      evidence: { watchlist: { hits: [hit] } },
    });
    assert.equal(atThreshold.decision, 'review_required');
    const noScore = { list: 'sanctions', score: Number.NaN };
    const unscored = review({
      tier: 'tier3',
      policy: { watchlist_min_score: 0.5 },
      evidence: { watchlist: { hits: [noScore] } },
    });
    assert.equal(unscored.decision, 'review_required');
    assert.deepEqual(checkOf(unscored, 'watchlist').details, { hits: 1 });
  });

  it('reports screening that did not run as inconclusive', () => {
    const check = checkOf(review({ tier: 'tier3', evidence: { watchlist: undefined } }), 'watchlist');
    assert.equal(check.status, 'inconclusive');
    assert.deepEqual(check.details, { cause: 'lookup_not_run' });
  });
});

// ---- With the models' evidence ----

/** What the engine hands the review for the genuine person of the clean scenario. */
function modelEvidence(): Partial<ReviewEvidence> {
  return {
    liveness: { accepted: true, judgement: genuineJudgement() },
    face_match: genuineFaceMatch(),
    proof_of_address: utilityBill('Ms Anna M. Eriksson\nStorgatan 12\nStatement date 2 June 2025'),
  };
}

/** Clean evidence plus the engine's readings, judgement and embeddings. */
const genuine = (scenario: Scenario = {}): Scenario => ({
  environment: 'production',
  reading: passportReading(),
  ...scenario,
  evidence: { ...modelEvidence(), ...scenario.evidence },
});

describe("review: with the models' evidence", () => {
  it('approves genuine tier2 evidence in production, every due check passed', () => {
    const result = review(genuine({ tier: 'tier2' }));
    assert.equal(result.decision, 'approved');
    assert.deepEqual(result.reasons, []);
    for (const check of result.checks.filter((candidate) => candidate.status !== 'not_performed')) {
      assert.equal(check.status, 'passed', check.type);
    }
    assert.equal(checkOf(result, 'document_authenticity').details?.['forensics'], 'not_performed');
    assert.equal(checkOf(result, 'liveness').details?.['passive_antispoofing'], 'not_performed');
  });

  it('approves genuine tier3 evidence in production, the proof of address included', () => {
    const result = review(genuine({ tier: 'tier3' }));
    assert.equal(checkOf(result, 'proof_of_address').status, 'passed');
    assert.equal(result.decision, 'approved');
  });

  it("rejects another person's face with face_mismatch", () => {
    const stranger = { faces: 1, face_width: 240, embedding: PERSON_B };
    const result = review(
      genuine({
        tier: 'tier2',
        evidence: { face_match: genuineFaceMatch({ probes: [stranger, stranger, stranger] }) },
      }),
    );
    assertRejected(result, ['face_mismatch'], false);
    assert.equal(result.reasons[0]?.user_message, REASON_CATALOGUE.face_mismatch.user_message);
  });

  it('sends a face between the match and mismatch limits to review with face_match_uncertain', () => {
    // 0.58 from the portrait in a space whose match limit is 0.55 and mismatch limit 0.62.
    const nearly = { faces: 1, face_width: 240, embedding: [PERSON_A[0] + 0.58, ...PERSON_A.slice(1)] };
    const result = review(
      genuine({
        tier: 'tier2',
        evidence: {
          face_match: genuineFaceMatch({ space: ZONED_DLIB_SPACE, probes: [nearly, nearly] }),
        },
      }),
    );
    assert.equal(result.decision, 'review_required');
    assert.deepEqual(
      result.reasons.map((reason) => reason.code),
      ['face_match_uncertain'],
    );
    assert.equal(checkOf(result, 'face_match').details?.['zone'], 'uncertain');
    assert.equal(checkOf(result, 'liveness').details?.['zone'], 'live');
  });

  it('does not approve a cartoon: no face on the frames fails liveness and leaves the face match undecided', () => {
    const noFace = analysis([]);
    const cartoon = genuine({
      tier: 'tier2',
      evidence: {
        liveness: { accepted: false, judgement: judgeLiveness(CHALLENGE, [noFace, noFace, noFace]) },
        face_match: genuineFaceMatch({ probes: [0, 1, 2].map(() => ({ faces: 0, face_width: 0 })) }),
      },
    });
    const result = review(cartoon);
    assertRejected(result, ['liveness_failed'], false);
    assert.equal(checkOf(result, 'face_match').details?.['cause'], 'no_face_on_selfie');
    assert.equal(checkOf(result, 'liveness').details?.['failure'], 'no_face');
  });

  it('rejects a replayed still with liveness_failed', () => {
    const still = analysis([face({ yaw: -24, smile: 0.9, leftEyeOpen: 0.1, rightEyeOpen: 0.1 })]);
    const judgement = judgeLiveness(CHALLENGE, [still, still, still]);
    const result = review(genuine({ tier: 'tier2', evidence: { liveness: { accepted: false, judgement } } }));
    assertRejected(result, ['liveness_failed'], false);
    assert.equal(checkOf(result, 'liveness').details?.['failure'], 'not_performed');
  });

  it('asks for review when the tenant wants a person to judge authenticity', () => {
    const result = review(genuine({ tier: 'tier2', policy: { document_authenticity: 'manual_review' } }));
    assert.equal(result.decision, 'review_required');
    assert.deepEqual(result.reasons, []);
    assert.equal(checkOf(result, 'document_authenticity').details?.['cause'], 'forensics_unavailable');
  });

  it('rejects a document whose zone fails its check digits though read with high confidence', () => {
    const mrz = { ...passportReading().mrz!, check_digits_valid: false };
    const result = review(genuine({ reading: passportReading({ mrz, mrz_confidence: 0.99 }) }));
    assertRejected(result, ['document_tampered'], false);
  });

  it('rejects on a face mismatch even when the watchlist also asks for review', () => {
    const stranger = { faces: 1, face_width: 240, embedding: PERSON_B };
    const result = review(
      genuine({
        tier: 'tier3',
        evidence: {
          face_match: genuineFaceMatch({ probes: [stranger] }),
          watchlist: { hits: [{ list: 'pep', score: 0.9 }] },
        },
      }),
    );
    assertRejected(result, ['face_mismatch'], false);
  });
});

// ---- Precedence and retryability ----

describe('review: precedence', () => {
  const watchlistHit = { watchlist: { hits: [{ list: 'sanctions', score: 1 }] } };

  it('rejects when a rejecting rule and a review rule both fire, naming only the rejecting reason', () => {
    const result = review({ tier: 'tier3', expiryDate: '2024-01-01', evidence: watchlistHit });
    assertRejected(result, ['document_expired'], false);
    assert.deepEqual(checkOf(result, 'watchlist').reason_codes, ['watchlist_hit']);
  });

  it('names every rejecting reason in contract order', () => {
    const result = review({ expiryDate: '2024-01-01', dateOfBirth: '2010-01-01' });
    assertRejected(result, ['document_expired', 'underage'], false);
  });

  it('is not retryable when an unfixable rejection accompanies an unreadable document', () => {
    const blurry = {
      document_type: 'passport',
      images: [{ side: 'front' as const, quality: { ok: false, issues: [] } }],
    };
    const result = review({
      dateOfBirth: '2010-01-01',
      evidence: {
        id_document: {
          ...blurry,
          details: { ...DETAILS, date_of_birth: '2010-01-01' },
          mrz: { ...MRZ, date_of_birth: '100101' },
        },
      },
    });
    assertRejected(result, ['document_unreadable', 'underage'], false);
  });

  it('is not retryable when consent is missing, even if the document is merely unreadable', () => {
    const blurry = {
      document_type: 'passport',
      images: [{ side: 'front' as const, quality: { ok: false, issues: [] } }],
    };
    const result = review({
      evidence: { consent: undefined, id_document: { ...blurry, details: DETAILS, mrz: MRZ } },
    });
    assertRejected(result, ['document_unreadable'], false);
  });

  it('names both review reasons when a duplicate and a watchlist hit fire together', () => {
    const duplicates = { document_number_used_by_other_reference: true, image_reused_in_other_session: true };
    const result = review({
      tier: 'tier3',
      environment: 'production',
      evidence: { ...watchlistHit, duplicates },
    });
    assert.equal(result.decision, 'review_required');
    assert.deepEqual(reasonCodes(result), ['duplicate_identity', 'watchlist_hit']);
  });
});

// ---- Sandbox forced outcomes ----

describe('review: sandbox forced outcome', () => {
  it('approves when forced, while still reporting the expired document honestly', () => {
    const result = review({ expiryDate: '2024-01-01', sandbox: { outcome: 'approved' } });
    assert.equal(result.decision, 'approved');
    assert.deepEqual(reasonCodes(result), ['sandbox_forced']);
    assert.equal(result.retryable, false);
    assert.deepEqual(checkOf(result, 'document_expiry').reason_codes, ['document_expired']);
  });

  it('asks for review when forced', () => {
    const result = review({ sandbox: { outcome: 'review_required' } });
    assert.equal(result.decision, 'review_required');
    assert.deepEqual(reasonCodes(result), ['sandbox_forced']);
  });

  // Forcing is how integrators rehearse the codes no automated rule produces yet.
  const forcedCodes: ReasonCode[] = [
    'document_tampered',
    'face_mismatch',
    'attempts_exhausted',
    'manual_rejection',
    'underage',
    'liveness_failed',
  ];
  for (const code of forcedCodes) {
    it(`rejects with sandbox_forced and ${code}, not retryable, when forced`, () => {
      const result = review({ sandbox: { outcome: 'rejected', reason_codes: [code] } });
      assertRejected(result, ['sandbox_forced', code], false);
      assert.deepEqual(result.reasons[1], { code, ...REASON_CATALOGUE[code] });
    });
  }

  it('makes a forced rejection retryable when all its codes are fixable by capturing again', () => {
    const result = review({ sandbox: { outcome: 'rejected', reason_codes: ['document_unreadable'] } });
    assertRejected(result, ['sandbox_forced', 'document_unreadable'], true);
  });

  it('lists sandbox_forced once even when the codes repeat it', () => {
    const result = review({
      sandbox: { outcome: 'rejected', reason_codes: ['sandbox_forced', 'underage', 'underage'] },
    });
    assert.deepEqual(reasonCodes(result), ['sandbox_forced', 'underage']);
  });

  it('ignores a sandbox setting in production and decides for real', () => {
    const result = review({
      environment: 'production',
      expiryDate: '2024-01-01',
      sandbox: { outcome: 'approved' },
    });
    assertRejected(result, ['document_expired'], false);
  });

  it('decides for real in the sandbox when the setting is null', () => {
    assertRejected(review({ expiryDate: '2024-01-01', sandbox: null }), ['document_expired'], false);
  });
});

// ---- Purity ----

describe('review: purity', () => {
  function deepFreeze<T>(value: T): T {
    if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      for (const member of Object.values(value)) deepFreeze(member);
      Object.freeze(value);
    }
    return value;
  }

  it('does not modify its input and gives the same result for the same input', () => {
    const input = deepFreeze(inputFor({ tier: 'tier3', flow: 'business', expiryDate: '2024-01-01' }));
    const first = decide(input);
    assert.deepEqual(decide(input), first);
  });

  it('decides by the given now, not by the wall clock', () => {
    const past = new Date('2020-01-01T00:00:00Z');
    assert.equal(review({ expiryDate: '2024-01-01', now: past }).decision, 'approved');
  });
});
