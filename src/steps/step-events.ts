import type { SandboxOutcome } from '../api/verify-types.ts';
import type { FlowEvent } from '../flow/flow-types.ts';

/**
 * Internal: a step asks the shell to apply a flow event. Bubbles inside the shell's shadow root only
 * (not composed), so host pages never see it.
 */
export class FlowIntentEvent extends Event {
  readonly flowEvent: FlowEvent;
  constructor(flowEvent: FlowEvent) {
    super('idv-flow-intent', { bubbles: true });
    this.flowEvent = flowEvent;
  }
}

/**
 * Internal: a step's API call failed. The shell handles what is global (expired link, offline) and
 * sets `handled`; otherwise the step shows the message where it happened.
 */
export class StepFailedEvent extends Event {
  readonly error: unknown;
  handled = false;
  constructor(error: unknown) {
    super('idv-step-failed', { bubbles: true });
    this.error = error;
  }
}

/** Internal: review asks the shell to submit (the shell owns the submitting state). */
export class SubmitIntentEvent extends Event {
  readonly sandboxOutcome: SandboxOutcome | undefined;
  constructor(sandboxOutcome?: SandboxOutcome) {
    super('idv-submit-intent', { bubbles: true });
    this.sandboxOutcome = sandboxOutcome;
  }
}

declare global {
  interface HTMLElementEventMap {
    'idv-flow-intent': FlowIntentEvent;
    'idv-step-failed': StepFailedEvent;
    'idv-submit-intent': SubmitIntentEvent;
  }
}
