export interface IdvErrorDetail {
  code: string;
  message: string;
  recoverable: boolean;
}
/**
 * Fired on every error the widget shows. `code` is the API's RFC 9457 code (or `network_error`,
 * `camera_denied`, `camera_unavailable`, `missing_token`); `recoverable` says whether the end-user can
 * go on in this widget.
 *
 * @example
 *   el.addEventListener('idv-error', (event) => console.log(event.detail));
 */
export class IdvErrorEvent extends Event {
  readonly detail: IdvErrorDetail;
  constructor(detail: IdvErrorDetail) {
    super('idv-error', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'idv-error': IdvErrorEvent;
  }
}
