import type { SessionStatus, StepId } from '../api/verify-types.ts';

export interface IdvReadyDetail {
  session_id: string | null;
  status: SessionStatus;
  steps: StepId[];
  sandbox: boolean;
}
/**
 * Fired once the session view is loaded and the first screen is shown.
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
