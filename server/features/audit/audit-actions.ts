/**
 * Every action the audit log records (GET /v1/audit-events). Names are `<target>.<what happened>`, stable
 * like error codes: the console filters on them.
 */
export const AUDIT_ACTIONS = [
  'console.login',
  'console.login_failed',
  'console.logout',
  'console.second_factor_failed',
  'session.review_approved',
  'session.review_rejected',
  'session.claim_taken_over',
  'session.claim_released',
  'session.assigned',
  'session.exported',
  'session.evidence_listed',
  'session.evidence_viewed',
  'session.personal_data_viewed',
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.tested',
  'user.invited',
  'user.invitation_reissued',
  'user.invitation_accepted',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'user.totp_enrolled',
  'user.totp_removed',
  'user.passkey_registered',
  'user.passkey_removed',
  'user.recovery_codes_issued',
  'tenant.updated',
  'watchlist.replaced',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an audit event can be about; the target's id is always an object id, never a personal value. */
export const AUDIT_TARGET_TYPES = ['user', 'session', 'api_key', 'webhook', 'tenant', 'watchlist'] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * Extra facts of an event: codes, counts, flags and the names of changed fields, never their values when
 * they could be personal (an e-mail, a name, a URL, a note).
 */
export type AuditDetails = Record<string, string | number | boolean | null | string[]>;
