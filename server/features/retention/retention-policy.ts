/**
 * How long a session's evidence (images, confirmed details, MRZ, consent record, liveness) outlives the
 * session (issue 3: "removed with their session's retention"). Days; fractions are allowed.
 */
export interface RetentionConfig {
  /** After an approval or rejection; default {@link DEFAULT_RETENTION}.evidenceDaysAfterDecision (90). */
  evidenceDaysAfterDecision?: number;
  /** After a session expired or was cancelled; default 30. */
  evidenceDaysAfterAbandonment?: number;
}

/**
 * The defaults. 90 days after a decision leaves room for the tenant to look at the evidence again
 * (a complaint, a manual check, a chargeback), then the personal data goes. An expired or cancelled
 * session never produced a decision anyone relies on, so its evidence goes after 30 days.
 *
 * Tenants with a legal duty to keep KYC records longer (e.g. AML record keeping, often 5 years after the
 * business relationship ends) must configure a longer period or keep their own copy: these defaults
 * favour data minimisation, not any one jurisdiction's record-keeping rule.
 */
export const DEFAULT_RETENTION: Readonly<Required<RetentionConfig>> = {
  evidenceDaysAfterDecision: 90,
  evidenceDaysAfterAbandonment: 30,
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** A resolved policy, in milliseconds. */
export interface RetentionPolicy {
  evidenceAfterDecisionMs: number;
  evidenceAfterAbandonmentMs: number;
}

/**
 * Fills in the defaults and refuses a period that is not a positive number of days, so a typo in
 * configuration stops the start-up instead of deleting evidence early.
 *
 * @example
 * resolveRetention({ evidenceDaysAfterDecision: 365 }).evidenceAfterAbandonmentMs // 30 days in ms
 */
export function resolveRetention(config: RetentionConfig = {}): RetentionPolicy {
  const days = { ...DEFAULT_RETENTION, ...definedOnly(config) };
  for (const [name, value] of Object.entries(days)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new RangeError(`retention.${name} must be a positive number of days, got ${String(value)}.`);
    }
  }
  return {
    evidenceAfterDecisionMs: days.evidenceDaysAfterDecision * DAY_MS,
    evidenceAfterAbandonmentMs: days.evidenceDaysAfterAbandonment * DAY_MS,
  };
}

function definedOnly(config: RetentionConfig): RetentionConfig {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
}
