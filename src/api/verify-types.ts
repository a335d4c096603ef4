/**
 * Wire types of the end-user endpoints (`/v1/verify/*`, API.md §9). Clients must ignore unknown fields,
 * so every optional member here may be absent and every union may grow: code reading them falls back.
 */

/** The values of `required_steps` (API.md §4). */
export type StepId =
  | 'consent'
  | 'id_document'
  | 'liveness'
  | 'proof_of_address'
  | 'business_details'
  | 'business_document';

export type SessionStatus =
  | 'created'
  | 'collecting'
  | 'processing'
  | 'approved'
  | 'rejected'
  | 'review_required'
  | 'expired'
  | 'cancelled';

/** Identity documents for `step=id_document`; only `passport` is front-only. */
export type IdDocumentType = 'passport' | 'id_card' | 'driving_licence' | 'residence_permit';
export type AddressDocumentType = 'utility_bill' | 'bank_statement' | 'tax_document';
export type BusinessDocumentType = 'registration_certificate';
export type DocumentType = IdDocumentType | AddressDocumentType | BusinessDocumentType;
export type Side = 'front' | 'back';
export type UploadStep = 'id_document' | 'proof_of_address' | 'business_document';
export type QualityIssue = 'blurry' | 'glare' | 'too_dark' | 'too_small' | 'no_document';
export type SandboxOutcome = 'approved' | 'rejected' | 'review_required';

export interface AcceptedDocumentTypes {
  id_document?: IdDocumentType[];
  proof_of_address?: AddressDocumentType[];
  business_document?: BusinessDocumentType[];
}

export interface SessionStepView {
  step: StepId;
  status: 'pending' | 'completed';
  attempts_remaining?: number;
}

/** Tenant colours; applied as `--idv-*` custom properties, never as raw CSS. */
export interface TenantBranding {
  primary_color?: string;
  background_color?: string;
  text_color?: string;
}

/** `GET /v1/verify/session`: the public view, no personal data. */
export interface SessionView {
  object?: string;
  session_id?: string;
  status: SessionStatus;
  flow?: 'user' | 'business';
  tier?: 'tier1' | 'tier2' | 'tier3';
  country?: string;
  expires_at?: string;
  required_steps?: StepId[];
  steps?: SessionStepView[];
  tenant?: { name?: string; branding?: TenantBranding };
  /** Per upload step (the server's shape); a bare array (older servers, mocks) means `id_document`. */
  accepted_document_types?: AcceptedDocumentTypes | IdDocumentType[];
  sandbox?: boolean;
  redirect_url?: string | null;
  /** End-user-safe reasons once decided. */
  reasons?: { code: string; user_message?: string }[];
  retry_allowed?: boolean;
  /** What the server read off the documents, to fill in (or stand in for) the details form; `{}` when nothing. */
  prefill?: { id_document?: DocumentPrefill };
}

/**
 * The details the server read from the identity document (machine-readable zone or barcode). When
 * `details_required` is false the server takes them as the end-user's details and `PUT details` is
 * optional; details sent anyway are compared with these.
 */
export interface DocumentPrefill {
  source: 'mrz' | 'barcode' | (string & {});
  details: Partial<Record<DetailField, string>>;
  details_required: boolean;
}

/** The fields of the identity document's details form. */
export type DetailField =
  | 'first_name'
  | 'last_name'
  | 'date_of_birth'
  | 'nationality'
  | 'document_number'
  | 'expiry_date';

/** `reading` of an `id_document` upload: what the server could read off that photo. */
export interface DocumentReadingSummary {
  mrz_read: boolean;
  barcode_read: boolean;
  details_required: boolean;
}

/** `POST /v1/verify/documents` → */
export interface UploadResult {
  upload_id: string;
  quality: { ok: boolean; issues: QualityIssue[] };
  /** Attempts left at the step; a photo with quality issues uses one (API.md §4). */
  attempts_remaining?: number;
  /** `rejected` once the last attempt was used. */
  session_status?: SessionStatus;
}

export interface IdDocumentDetails {
  step: 'id_document';
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD */
  date_of_birth: string;
  nationality: string;
  document_number: string;
  /** YYYY-MM-DD */
  expiry_date: string;
  /** MRZ lines joined by `\n`. */
  mrz?: string;
}

export interface BusinessDetails {
  step: 'business_details';
  legal_name: string;
  registration_number: string;
  jurisdiction: string;
}

export type DetailsBody = IdDocumentDetails | BusinessDetails;

/** Liveness actions; unknown ones get a generic prompt. */
export type LivenessAction =
  | 'turn_left'
  | 'turn_right'
  | 'smile'
  | 'blink'
  | 'look_up'
  | 'look_down'
  | 'nod'
  | (string & {});

export interface LivenessChallenge {
  challenge_id: string;
  actions: LivenessAction[];
  expires_at: string;
}

/** Why a liveness attempt was sent back (API.md §9); new reasons may come, worded by `user_message`. */
export type LivenessRetryReason =
  | 'capture_quality'
  | 'challenge_expired'
  | 'frame_count_mismatch'
  | 'frame_undecodable'
  | 'frames_repeated'
  | 'no_face'
  | 'several_faces'
  | 'face_changed'
  | 'action_not_performed'
  | (string & {});

export interface LivenessResult {
  status: 'accepted' | 'retry';
  attempts_remaining: number;
  /** With `retry`. */
  reason?: LivenessRetryReason;
  /** With `action_not_performed`: the action that was not seen. */
  action?: LivenessAction;
  /** With `capture_quality`: what to fix; such a retry costs no attempt. */
  quality_issues?: QualityIssue[];
  /** With `retry`: the server's advice, in English. */
  user_message?: string;
  /** `rejected` once the last attempt was used. */
  session_status?: SessionStatus;
}

export interface HandoffLink {
  url: string;
  expires_at?: string;
}

/** Fields the server may have read from the document (MRZ/OCR), used to prefill the confirm form. */
export type ExtractedFields = Partial<Omit<IdDocumentDetails, 'step'>>;
