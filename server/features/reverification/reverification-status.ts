import type { SessionStatus } from '../../domain/session-status.ts';

export const REVERIFICATION_STATUSES = [
  'pending',
  'in_progress',
  'review_required',
  'approved',
  'rejected',
  'expired',
  'cancelled',
] as const;
export type ReverificationStatus = (typeof REVERIFICATION_STATUSES)[number];

/**
 * A re-verification request mirrors its linked session (API.md §7).
 *
 * @example
 * reverificationStatusOf('processing') // 'in_progress'
 */
export function reverificationStatusOf(session: SessionStatus): ReverificationStatus {
  switch (session) {
    case 'created':
      return 'pending';
    case 'collecting':
    case 'processing':
      return 'in_progress';
    case 'review_required':
    case 'approved':
    case 'rejected':
    case 'expired':
    case 'cancelled':
      return session;
  }
}
