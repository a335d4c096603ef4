import type { SessionStatus } from '../api/verify-api.ts';

export interface IdvExitDetail {
  status: SessionStatus | null;
}
/**
 * Fired when the end-user presses Close on a final screen; the host decides where to go.
 *
 * @example
 *   el.addEventListener('idv-exit', (event) => console.log(event.detail));
 */
export class IdvExitEvent extends Event {
  readonly detail: IdvExitDetail;
  constructor(detail: IdvExitDetail) {
    super('idv-exit', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'idv-exit': IdvExitEvent;
  }
}
