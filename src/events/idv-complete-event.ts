import type { SessionStatus } from '../api/verify-api.ts';

export interface IdvCompleteDetail {
  session_id: string | null;
  status: SessionStatus;
}
/**
 * Fired when the session reaches a final status for this visit (approved, rejected, review_required,
 * cancelled). The host confirms the outcome from its server (`GET /v1/sessions/:id/result`): a browser
 * event is a hint, never proof.
 *
 * @example
 *   el.addEventListener('idv-complete', (event) => console.log(event.detail));
 */
export class IdvCompleteEvent extends Event {
  readonly detail: IdvCompleteDetail;
  constructor(detail: IdvCompleteDetail) {
    super('idv-complete', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'idv-complete': IdvCompleteEvent;
  }
}
