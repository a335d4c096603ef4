import type { StepChangeDetail } from './step-change-detail.ts';
/**
 * Fired before the widget moves to another screen. Cancelable: `preventDefault()` keeps the current
 * screen (e.g. to show the host's own interstitial); the action that led here has already been saved.
 *
 * @example
 *   el.addEventListener('idv-before-step-change', (event) => console.log(event.detail));
 */
export class IdvBeforeStepChangeEvent extends Event {
  readonly detail: StepChangeDetail;
  constructor(detail: StepChangeDetail) {
    super('idv-before-step-change', { bubbles: true, composed: true, cancelable: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'idv-before-step-change': IdvBeforeStepChangeEvent;
  }
}
