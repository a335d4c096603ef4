import type { SessionStatus } from './api/verify-api.ts';
import type { MessageKey } from './i18n/en.ts';

/** Title and body of the result screen per status (`created`/`collecting` never reach it). */
export function resultText(status: SessionStatus): { title: MessageKey; body: MessageKey } {
  switch (status) {
    case 'approved':
      return { title: 'resultApprovedTitle', body: 'resultApprovedBody' };
    case 'rejected':
      return { title: 'resultRejectedTitle', body: 'resultRejectedBody' };
    case 'review_required':
      return { title: 'resultReviewTitle', body: 'resultReviewBody' };
    case 'cancelled':
      return { title: 'resultCancelledTitle', body: 'resultCancelledBody' };
    case 'expired':
      return { title: 'expiredTitle', body: 'expiredSessionBody' };
    default:
      return { title: 'resultProcessingTitle', body: 'resultProcessingBody' };
  }
}
