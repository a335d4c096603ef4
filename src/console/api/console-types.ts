/**
 * The shapes of the `/v1` objects the console reads (API.md and `/v1/openapi.json`). Only the fields the
 * console uses; clients ignore unknown fields (API.md §1).
 */
// The lists the console shows are the server's own (pure modules, no I/O), so they never drift apart.
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../../server/features/audit/audit-actions.ts';
import { REASON_CODES as ALL_REASON_CODES } from '../../../server/domain/review/reasons.ts';
import { WEBHOOK_EVENT_KINDS } from '../../../server/features/webhooks/event-kinds.ts';

export { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, WEBHOOK_EVENT_KINDS };

export type Environment = 'sandbox' | 'production';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];

export type Role = 'tenant_admin' | 'developer' | 'reviewer' | 'viewer';
export const ROLES: readonly Role[] = ['tenant_admin', 'developer', 'reviewer', 'viewer'];

export type Capability =
  | 'sessions:create'
  | 'sessions:cancel'
  | 'sessions:read'
  | 'sessions:review'
  | 'sessions:assign'
  | 'identities:read'
  | 'identities:read_pii'
  | 'reverifications:create'
  | 'webhooks:read'
  | 'webhooks:write'
  | 'api_keys:write'
  | 'users:write'
  | 'tenant:write'
  | 'audit:read'
  | 'sandbox:simulate'
  | 'watchlist:read'
  | 'watchlist:write';

export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export interface User {
  object: 'user';
  user_id: string;
  email: string;
  role: Role;
  tenant_id: string;
}

export interface Me {
  object: 'me';
  user: User;
  tenant: { object: 'tenant'; tenant_id: string; name: string; status: string };
  capabilities: Capability[];
  default_path: string;
  environment: Environment;
}

export interface LoginResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user: User;
  capabilities: Capability[];
  default_path: string;
  /** The tenant requires a second factor and the user has none: this token only enrols one. */
  second_factor_enrolment_required?: true;
}

export type SecondFactorMethod = 'totp' | 'recovery_code' | 'passkey';

/** The password was right and the user has a second factor: the login continues with it. */
export interface SecondFactorChallenge {
  second_factor_required: true;
  challenge_token: string;
  expires_in: number;
  methods: SecondFactorMethod[];
  /** WebAuthn `PublicKeyCredentialRequestOptionsJSON`, when the user has passkeys. */
  passkey_options: Record<string, unknown> | null;
}

/** What the password step answers. */
export type LoginAnswer = LoginResponse | SecondFactorChallenge;

/** One of the second factors `POST /v1/console/login/second-factor` takes. */
export type SecondFactorAnswer =
  | { totp_code: string }
  | { recovery_code: string }
  | { passkey: Record<string, unknown> };

export interface Passkey {
  object: 'passkey';
  passkey_id: string;
  name: string;
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
}

export interface SecondFactors {
  object: 'second_factors';
  totp: boolean;
  passkeys: Passkey[];
  recovery_codes_remaining: number;
  required_by_tenant: boolean;
}

export interface TotpEnrolment {
  object: 'totp_enrolment';
  enrolment_id: string;
  secret: string;
  otpauth_uri: string;
  expires_in: number;
}

export interface PasskeyRegistration {
  object: 'passkey_registration';
  registration_id: string;
  /** WebAuthn `PublicKeyCredentialCreationOptionsJSON`. */
  options: Record<string, unknown>;
}

/** What completing an enrolment returns. */
export interface EnrolmentResult {
  /** Shown once; null when the user's earlier codes still stand. */
  recovery_codes: string[] | null;
  /** A full login replacing a token restricted to enrolment; null otherwise. */
  login: LoginResponse | null;
}

export type UserStatus = 'invited' | 'active' | 'disabled';

export interface TenantUser extends User {
  status: UserStatus;
  invitation_expires_at: string | null;
  invited_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface InvitedUser extends TenantUser {
  invitation_token: string;
}

export const SESSION_STATUSES = [
  'created',
  'collecting',
  'processing',
  'review_required',
  'approved',
  'rejected',
  'expired',
  'cancelled',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const FLOWS = ['user', 'business'] as const;
export const TIERS = ['tier1', 'tier2', 'tier3'] as const;

export interface StepProgress {
  step: string;
  status: 'pending' | 'completed';
  attempts_remaining: number;
}

export interface Session {
  object: 'session';
  session_id: string;
  verify_url?: string;
  status: SessionStatus;
  required_steps: string[];
  expires_at: string;
  environment: Environment;
  country: string;
  flow: (typeof FLOWS)[number];
  tier: (typeof TIERS)[number];
  external_user_reference: string | null;
  redirect_url: string | null;
  metadata: Record<string, string | number | boolean | null>;
  steps: StepProgress[];
  identity_id: string | null;
  decision: string | null;
  last_error: { code: string; reason: string } | null;
  reverification_request_id: string | null;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
  decided_at: string | null;
}

export type CheckStatus = 'passed' | 'failed' | 'inconclusive' | 'not_performed';

export interface Check {
  type: string;
  status: CheckStatus;
  reason_codes: string[];
  details?: Record<string, unknown>;
}

export interface SessionResult {
  object: 'session_result';
  session_id: string;
  status: SessionStatus;
  decision: 'approved' | 'rejected' | 'review_required' | null;
  decided_at: string | null;
  decided_by: 'automated' | 'reviewer' | null;
  identity_id: string | null;
  retry_allowed: boolean;
  reasons: { code: string; message: string; user_message: string }[];
  checks: Check[];
}

/**
 * Reason codes a reviewer may give with a rejection (API.md §5): the server's catalogue less the codes
 * only the system sets (`manual_rejection` is added to every rejection by a person).
 */
export const REASON_CODES = ALL_REASON_CODES.filter(
  (code) => !['attempts_exhausted', 'manual_rejection', 'sandbox_forced'].includes(code),
);

export interface EvidenceUpload {
  object: 'upload';
  upload_id: string;
  session_id: string;
  kind: 'document' | 'liveness_frame';
  step: string;
  document_type: string | null;
  side: 'front' | 'back' | null;
  issuing_country: string | null;
  frame_index: number | null;
  content_type: string;
  width: number;
  height: number;
  quality: { ok: boolean; issues: string[] };
  created_at: string;
}

export interface ApiEvent {
  object: 'event';
  event_id: string;
  type: string;
  environment: Environment;
  session_id: string | null;
  identity_id: string | null;
  created_at: string;
}

export interface Webhook {
  object: 'webhook';
  webhook_id: string;
  url: string;
  events: string[];
  status: 'active' | 'disabled';
  environment: Environment;
  description: string | null;
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookWithSecret extends Webhook {
  secret: string;
}

export interface DeliveryAttempt {
  attempt: number;
  status: 'in_flight' | 'succeeded' | 'failed' | 'interrupted';
  response_status: number | null;
  duration_ms: number | null;
  error_class: string | null;
  started_at: string;
}

export interface Delivery {
  object: 'webhook_delivery';
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_response_status: number | null;
  last_error_class: string | null;
  attempts: DeliveryAttempt[];
  created_at: string;
}

export interface WebhookTestResult {
  object: 'webhook_test';
  delivery_id: string;
  event_id: string;
  /** True when the receiver answered 2xx. */
  delivered: boolean;
  /** `2xx`, `3xx`, `4xx` or `5xx`; null when no answer came. The exact status is in the delivery log. */
  status_class: string | null;
}

export interface ApiKey {
  object: 'api_key';
  api_key_id: string;
  name: string;
  environment: Environment;
  prefix: string;
  last4: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface CreatedApiKey extends ApiKey {
  secret: string;
}

export interface Identity {
  object: 'identity';
  identity_id: string;
  environment: Environment;
  status: 'verified' | 'reverification_pending' | 'reverification_failed' | 'revoked';
  flow: string;
  tier: string;
  external_user_reference: string | null;
  verified_at: string;
  latest_session_id: string;
  attributes: {
    first_name: string | null;
    last_name: string | null;
    date_of_birth: string | null;
    nationality: string | null;
    address?: string | null;
    document: {
      type: string | null;
      issuing_country: string | null;
      number: string | null;
      expiry_date: string | null;
    };
  };
  business?: { legal_name: string | null; registration_number: string | null; jurisdiction: string | null };
  biometric_reference: boolean;
  personal_data_masked: boolean;
  created_at: string;
  updated_at: string;
}

export const REVERIFICATION_REASON_CODES = [
  'periodic_review',
  'document_expired',
  'account_change',
  'high_risk_action',
  'suspicious_activity',
  'other',
] as const;

export interface ReverificationRequest {
  object: 'reverification_request';
  reverification_request_id: string;
  identity_id: string;
  reason: string;
  reason_code: string | null;
  mode: 'full' | 'biometric';
  status: string;
  session_id: string;
  verify_url: string;
  expires_at: string;
  created_at: string;
}

export interface Tenant {
  object: 'tenant';
  tenant_id: string;
  name: string;
  status: 'active' | 'suspended';
  allowed_origins: string[];
  branding: { primary_color?: string; accent_color?: string; logo_url?: string };
  minimum_age: number;
  document_authenticity: 'offline_checks' | 'manual_review';
  proof_of_address_max_age_days: number;
  /** Judged tries per step of a new session, 1–10 (capture-quality refusals cost none). */
  attempts_per_step: number;
  /** Every member must log in with a second factor. */
  require_second_factor: boolean;
  created_at: string;
  updated_at: string;
}

export interface WatchlistEntry {
  name: string;
  aliases?: string[];
  date_of_birth?: string;
  list?: string;
}

export interface Watchlist {
  object: 'watchlist';
  environment: Environment;
  source: 'tenant' | 'sample' | 'none';
  entries: WatchlistEntry[];
  entry_count: number;
  updated_at: string | null;
}

export interface AuditEvent {
  object: 'audit_event';
  audit_event_id: string;
  action: (typeof AUDIT_ACTIONS)[number];
  actor: { type: 'user' | 'api_key' | 'unknown_account'; id: string | null };
  target: { type: (typeof AUDIT_TARGET_TYPES)[number]; id: string | null } | null;
  environment: Environment | null;
  request_id: string | null;
  ip_prefix: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

export interface DayCounts {
  date: string;
  created: number;
  approved: number;
  rejected: number;
  review_required: number;
}

export interface Stats {
  object: 'stats';
  environment: Environment;
  days: number;
  from: string;
  to: string;
  sessions: { total: number; by_status: Record<SessionStatus, number> };
  /** approved ÷ (approved + rejected) over the window; null when nothing was decided. */
  approval_rate: number | null;
  median_seconds_to_decision: number | null;
  /** One entry per UTC day, oldest first. */
  per_day: DayCounts[];
  review_queue: { length: number; oldest_since: string | null; oldest_age_seconds: number | null };
}
