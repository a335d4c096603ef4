export const SESSION_STATUSES = [
  'created',
  'collecting',
  'processing',
  'approved',
  'rejected',
  'review_required',
  'expired',
  'cancelled',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const TERMINAL_STATUSES: readonly SessionStatus[] = ['approved', 'rejected', 'expired', 'cancelled'];

/** Why a session moves; the trigger decides which moves are legal (API.md §4 transitions). */
export type SessionTrigger =
  | 'end_user_started'
  | 'expired'
  | 'cancelled'
  | 'submitted'
  | 'attempts_exhausted'
  | 'decided'
  | 'resubmission_requested'
  | 'reviewed';

const ALLOWED: Record<SessionTrigger, { from: readonly SessionStatus[]; to: readonly SessionStatus[] }> = {
  end_user_started: { from: ['created'], to: ['collecting'] },
  expired: { from: ['created', 'collecting'], to: ['expired'] },
  cancelled: { from: ['created', 'collecting'], to: ['cancelled'] },
  submitted: { from: ['collecting'], to: ['processing'] },
  attempts_exhausted: { from: ['collecting'], to: ['rejected'] },
  decided: { from: ['processing'], to: ['approved', 'rejected', 'review_required'] },
  resubmission_requested: { from: ['processing'], to: ['collecting'] },
  reviewed: { from: ['review_required'], to: ['approved', 'rejected'] },
};

export function isTerminal(status: SessionStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * The session state machine as one pure check: is `from → to` legal for this trigger?
 *
 * @example
 * canTransition('created', 'collecting', 'end_user_started') // true
 * canTransition('approved', 'cancelled', 'cancelled') // false
 */
export function canTransition(from: SessionStatus, to: SessionStatus, trigger: SessionTrigger): boolean {
  const rule = ALLOWED[trigger];
  return rule.from.includes(from) && rule.to.includes(to);
}

/** A session past its `expires_at` that could still expire is treated as expired on every read. */
export function isOverdue(status: SessionStatus, expiresAt: Date, now: Date): boolean {
  return (status === 'created' || status === 'collecting') && expiresAt.getTime() <= now.getTime();
}
