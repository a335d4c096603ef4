import type { EmbeddingSpace, EngineInfo, FaceQuality } from '../../features/vision/vision-engine.ts';
import type { AamvaFields } from '../aamva.ts';
import type { Environment } from '../api-key-format.ts';
import type { LivenessJudgement } from '../liveness-judgement.ts';
import type { Flow, StepName, Tier } from '../session-steps.ts';
import type { ReasonCode } from './reasons.ts';
import type { Decision } from './review-result.ts';

/** Document types per step (API.md §9). */
export const ID_DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence', 'residence_permit'] as const;
export type IdDocumentType = (typeof ID_DOCUMENT_TYPES)[number];
export const PROOF_OF_ADDRESS_DOCUMENT_TYPES = ['utility_bill', 'bank_statement', 'tax_document'] as const;
export const BUSINESS_DOCUMENT_TYPES = ['registration_certificate'] as const;

/** Image quality findings of an upload (API.md §9 `quality.issues`). */
export const QUALITY_ISSUES = ['blurry', 'glare', 'too_dark', 'too_small', 'no_document'] as const;
export type QualityIssue = (typeof QUALITY_ISSUES)[number];

/** One uploaded image as the upload endpoint judged it; `ok: false` means a blocking quality issue. */
export interface CapturedImage {
  side: 'front' | 'back';
  quality: { ok: boolean; issues: readonly QualityIssue[] };
}

/**
 * A document of one step. `document_type` stays a plain string: whether it is accepted is a check.
 * `images` are in upload order; the last image of a side is the one reviewed.
 */
export interface CapturedDocument {
  document_type: string;
  images: readonly CapturedImage[];
}

/** What the end-user confirmed with `PUT /v1/verify/details` for `id_document`. Dates are `YYYY-MM-DD`. */
export interface ConfirmedDetails {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  document_number: string;
  expiry_date: string;
  /**
   * The stated nationality (ISO 3166-1 alpha-3). No check reads it yet; it travels with the evidence so
   * an approval can vault it on the identity (API.md §6).
   */
  nationality?: string;
}

/**
 * The machine-readable zone, already parsed (e.g. by the `mrz` package). Names as printed, fillers (`<`)
 * turned into spaces or kept; dates either as printed (`YYMMDD`) or with the century resolved
 * (`YYYY-MM-DD`): comparing `YYMMDD` avoids guessing the century of a birth year.
 */
export interface ParsedMrz {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  document_number: string;
  expiry_date: string;
  /** Whether every check digit of the MRZ verified. */
  check_digits_valid: boolean;
}

/** What the engine read off the reviewed document image(s); absent when no engine ran. */
export interface DocumentReadingEvidence {
  /** The MRZ parsed from the OCR'd lines (null: no zone found or not parseable). */
  mrz: (ParsedMrz & { format: 'TD1' | 'TD2' | 'TD3' }) | null;
  /**
   * Mean OCR confidence of the zone, 0–1 (`MrzReading.confidence`). Optional: without it, check digits
   * that do not verify are always taken for a misread, never for tampering.
   */
  mrz_confidence?: number;
  /** Fields from a PDF417 (AAMVA) barcode on the back, null when none. */
  barcode: AamvaFields | null;
  /** Faces found on the document (portrait), and the largest face's width in px. */
  portrait_faces: number;
  portrait_face_width: number;
  layout: { found: boolean; aspect_ratio: number; deskew_degrees: number };
  engine: EngineInfo;
}

export interface IdDocumentEvidence extends CapturedDocument {
  /** The issuing country (ISO 3166-1 alpha-3) the end-user picked for the reviewed document's upload. */
  issuing_country?: string;
  details?: ConfirmedDetails;
  /**
   * Where `details` came from: `typed` (the default) when the end-user typed or confirmed them, `mrz` or
   * `barcode` when nothing was typed and they are the document's own reading. Only typed details are a
   * source of their own for the consistency check; the document's own would agree with it trivially.
   */
  details_source?: 'typed' | 'mrz' | 'barcode';
  /** The MRZ the end-user's device supplied with the details (`PUT /v1/verify/details`). */
  mrz?: ParsedMrz;
  /** What the server's engine read off the document. */
  reading?: DocumentReadingEvidence;
}

/** One face image compared in the face match: how many faces it shows, the largest one's width in px. */
export interface FaceSample {
  faces: number;
  face_width: number;
  /**
   * Head pose of the largest face in degrees (the seam's convention), when the engine measured it: the face
   * match prefers frontal probes.
   */
  pose?: { yaw: number; pitch: number };
  /** The largest face's embedding in {@link FaceMatchEvidence.space}; biometric data, never logged. */
  embedding?: readonly number[];
  /**
   * The largest face's quality as the engine measured it on the embedder's crop (sharpness, eye
   * visibility); absent from engines and stored readings that do not have it. The face match never
   * rejects on a face below its floors (`FACE_QUALITY_FLOORS`).
   */
  quality?: FaceQuality;
}

/** The reference face and this session's faces, as the engine embedded them. */
export interface FaceMatchEvidence {
  reference: FaceSample & { source: 'document_portrait' | 'enrolled_selfie' };
  /** The liveness frames (or selfie) of this session. */
  probes: readonly FaceSample[];
  space: EmbeddingSpace;
  engine: EngineInfo;
}

/** A proof of address, with the text the engine read off it. */
export interface ProofOfAddressEvidence extends CapturedDocument {
  /** Personal data: decrypted for the review only. */
  reading?: { text: string; confidence: number; engine: EngineInfo };
}

export interface BusinessDetails {
  legal_name: string;
  registration_number: string;
  jurisdiction: string;
}

/** Look-ups the engine ran against the tenant's other sessions before calling the review. */
export interface DuplicateSignals {
  /** The document number is on an identity or session of another `external_user_reference` in the tenant. */
  document_number_used_by_other_reference: boolean;
  /** The exact bytes of an uploaded image were uploaded in another session. */
  image_reused_in_other_session: boolean;
}

/** One screening match; `score` runs from 0 (weak) to 1 (exact). */
export interface WatchlistHit {
  list: string;
  score: number;
}

/**
 * Everything collected for the session. An absent member means it was not collected (or the look-up did
 * not run); the review then says `inconclusive` rather than guessing.
 */
export interface ReviewEvidence {
  consent?: { accepted: boolean };
  id_document?: IdDocumentEvidence;
  /**
   * The latest liveness attempt: were the nonce-bound frames accepted, and, when the face models ran, the
   * judgement of each frame.
   */
  liveness?: { accepted: boolean; judgement?: LivenessJudgement };
  /** Absent when no engine embedded the faces. */
  face_match?: FaceMatchEvidence;
  proof_of_address?: ProofOfAddressEvidence;
  business_details?: BusinessDetails;
  business_document?: CapturedDocument;
  duplicates?: DuplicateSignals;
  watchlist?: { hits: readonly WatchlistHit[] };
}

/** The part of the session the review depends on. */
export interface ReviewSession {
  flow: Flow;
  tier: Tier;
  required_steps: readonly StepName[];
  /** Sandbox-only forced outcome (API.md §4); ignored in production. */
  sandbox?: { outcome: Decision; reason_codes?: readonly ReasonCode[] } | null;
}

/** The tenant's review settings; every member has a default. */
export interface ReviewPolicy {
  /** Default {@link DEFAULT_MINIMUM_AGE}. */
  minimum_age?: number;
  /** Identity documents the tenant accepts; default all of {@link ID_DOCUMENT_TYPES}. */
  accepted_document_types?: readonly IdDocumentType[];
  /** Hits scoring below this are ignored; default 0, so every hit the screener reports counts. */
  watchlist_min_score?: number;
  /**
   * Default {@link DEFAULT_DOCUMENT_AUTHENTICITY}. `offline_checks`: a document whose offline checks all
   * pass makes `document_authenticity` pass (`details.method` lists them, `details.forensics` says
   * `not_performed`); `manual_review`: it stays inconclusive so a person looks.
   */
  document_authenticity?: 'offline_checks' | 'manual_review';
  /** How old a proof of address may be; default {@link DEFAULT_PROOF_OF_ADDRESS_MAX_AGE_DAYS}. */
  proof_of_address_max_age_days?: number;
}

export const DEFAULT_MINIMUM_AGE = 18;
export const DEFAULT_DOCUMENT_AUTHENTICITY = 'offline_checks';
/** Three months, the usual requirement for a proof of address (the longest three months are 92 days). */
export const DEFAULT_PROOF_OF_ADDRESS_MAX_AGE_DAYS = 92;

export interface ReviewInput {
  session: ReviewSession;
  evidence: ReviewEvidence;
  policy: ReviewPolicy;
  environment: Environment;
  /** The moment of the review; passed in so the decision is reproducible. */
  now: Date;
}
