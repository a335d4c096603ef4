import type { SessionStatus, StepId } from '../api/verify-api.ts';

export interface IdvReadyDetail {
  session_id: string | null;
  status: SessionStatus;
  steps: StepId[];
  sandbox: boolean;
}
/**
 * Fired first, when the session view is loaded and before the first `idv-step-change`; once per session
 * token, and again after a fresh `verify-url` (following `idv-token-expired`) loads.
 *
 * @example
 *   el.addEventListener('idv-ready', (event) => console.log(event.detail));
 */
export class IdvReadyEvent extends Event {
  readonly detail: IdvReadyDetail;
  constructor(detail: IdvReadyDetail) {
    super('idv-ready', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'idv-ready': IdvReadyEvent;
  }
}
