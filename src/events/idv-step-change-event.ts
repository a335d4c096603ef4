import type { StepChangeDetail } from './step-change-detail.ts';
/**
 * Fired after the widget moved to another screen.
 *
 * @example
 *   el.addEventListener('idv-step-change', (event) => console.log(event.detail));
 */
export class IdvStepChangeEvent extends Event {
  readonly detail: StepChangeDetail;
  constructor(detail: StepChangeDetail) {
    super('idv-step-change', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'idv-step-change': IdvStepChangeEvent;
  }
}
