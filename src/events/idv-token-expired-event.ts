export interface IdvTokenExpiredDetail {
  code: string;
  reason: 'token_expired' | 'session_expired';
}
/**
 * Fired when the verify token or the session has expired (HTTP 401/410). For `token_expired` the host
 * can mint a fresh link (`POST /v1/sessions/:id/verify-url` from its server) and set `verify-url`: the
 * widget resumes where the end-user left off.
 *
 * @example
 *   el.addEventListener('idv-token-expired', (event) => console.log(event.detail));
 */
export class IdvTokenExpiredEvent extends Event {
  readonly detail: IdvTokenExpiredDetail;
  constructor(detail: IdvTokenExpiredDetail) {
    super('idv-token-expired', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'idv-token-expired': IdvTokenExpiredEvent;
  }
}
