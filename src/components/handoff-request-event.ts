/**
 * Internal: a step offers "Continue on your phone" itself (after the server refused a photo for quality),
 * and the end-user took it; the shell opens the handoff view. Apart from handoff-view.ts so the steps do
 * not pull that lazily loaded view (and its QR encoder) into the first bundle.
 */
export class HandoffRequestEvent extends Event {
  constructor() {
    super('idv-handoff-request', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'idv-handoff-request': HandoffRequestEvent;
  }
}
