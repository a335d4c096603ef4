import type { LivenessAction } from '../../../server/domain/liveness-challenge.ts';
import { judgeLiveness, type LivenessJudgement } from '../../../server/domain/liveness-judgement.ts';
import type {
  DocumentReadingEvidence,
  FaceMatchEvidence,
  IdDocumentEvidence,
  ParsedMrz,
  ProofOfAddressEvidence,
  ReviewEvidence,
  ReviewInput,
} from '../../../server/domain/review/review-input.ts';
import {
  analysis,
  DLIB_SPACE,
  face,
  MODELS,
  PERSON_A,
  PERSON_A_AGAIN,
  PERSON_A_TURNED,
} from '../domain/vision-fixtures.ts';

/** Evidence as the engine would hand it to the review for a genuine person, built by hand. */

export const GOOD = { ok: true, issues: [] };

export const READ_MRZ: ParsedMrz & { format: 'TD3' } = {
  format: 'TD3',
  first_name: 'ANNA MARIA',
  last_name: 'ERIKSSON',
  date_of_birth: '1990-04-01',
  document_number: 'L898902C3',
  expiry_date: '2030-04-15',
  check_digits_valid: true,
};

export const TYPED = {
  first_name: 'Anna Maria',
  last_name: 'Eriksson',
  date_of_birth: '1990-04-01',
  document_number: 'L898902C3',
  expiry_date: '2030-04-15',
};

/** A passport data page read well: valid MRZ, one portrait face, an outline of TD3 proportions. */
export function passportReading(overrides: Partial<DocumentReadingEvidence> = {}): DocumentReadingEvidence {
  return {
    mrz: READ_MRZ,
    mrz_confidence: 0.9,
    barcode: null,
    portrait_faces: 1,
    portrait_face_width: 180,
    layout: { found: true, aspect_ratio: 1.43, deskew_degrees: 1.5 },
    engine: MODELS,
    ...overrides,
  };
}

export const CHALLENGE: LivenessAction[] = ['turn_left', 'smile', 'blink'];

/** The genuine person's three frames for {@link CHALLENGE}. */
export const GENUINE_FRAMES = [
  analysis([face({ yaw: -24, embedding: PERSON_A_TURNED })]),
  analysis([face({ smile: 0.9, embedding: PERSON_A_AGAIN })]),
  analysis([face({ leftEyeOpen: 0.1, rightEyeOpen: 0.1 })]),
];

export function genuineJudgement(): LivenessJudgement {
  return judgeLiveness(CHALLENGE, GENUINE_FRAMES);
}

/** The document portrait against the genuine liveness frames. */
export function genuineFaceMatch(overrides: Partial<FaceMatchEvidence> = {}): FaceMatchEvidence {
  return {
    reference: { source: 'document_portrait', faces: 1, face_width: 180, embedding: PERSON_A },
    probes: [PERSON_A_TURNED, PERSON_A_AGAIN, PERSON_A].map((embedding) => ({
      faces: 1,
      face_width: 240,
      embedding,
    })),
    space: DLIB_SPACE,
    engine: MODELS,
    ...overrides,
  };
}

export function utilityBill(text: string, confidence = 0.88): ProofOfAddressEvidence {
  return {
    document_type: 'utility_bill',
    images: [{ side: 'front', quality: GOOD }],
    reading: { text, confidence, engine: { kind: 'models', models: ['tesseract@7.0.0-eng-best-int'] } },
  };
}

export const NOW = new Date('2026-04-01T12:00:00Z');

/** A tier3 user session's input around the given evidence, for calling one check directly. */
export function inputWith(evidence: ReviewEvidence, policy: ReviewInput['policy'] = {}): ReviewInput {
  return {
    session: {
      flow: 'user',
      tier: 'tier3',
      required_steps: ['consent', 'id_document', 'liveness', 'proof_of_address'],
    },
    evidence,
    policy,
    environment: 'production',
    now: NOW,
  };
}

/** A passport with typed details and the engine's reading; `null`: no engine ran. */
export function passportEvidence(
  reading: DocumentReadingEvidence | null = passportReading(),
): IdDocumentEvidence {
  return {
    document_type: 'passport',
    images: [{ side: 'front', quality: GOOD }],
    details: TYPED,
    ...(reading === null ? {} : { reading }),
  };
}
