import type { SandboxOutcome, StepId } from '../api/verify-api.ts';
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

/**
 * Internal: the server's answer to an attempt at a capture step (an upload, a selfie check): how many
 * attempts are left (API.md §4: 3 per step) and the session's status, `rejected` once none are left.
 */
export class AttemptsEvent extends Event {
  readonly step: StepId;
  readonly remaining: number;
  /** This attempt failed (quality issues, a selfie check to redo) and used one up. */
  readonly failed: boolean;
  /** The session's status after the attempt, as the answer gives it. */
  readonly sessionStatus: string | undefined;
  constructor(step: StepId, remaining: number, failed: boolean, sessionStatus?: string) {
    super('idv-attempts', { bubbles: true });
    this.step = step;
    this.remaining = remaining;
    this.failed = failed;
    this.sessionStatus = sessionStatus;
  }
}

declare global {
  interface HTMLElementEventMap {
    'idv-flow-intent': FlowIntentEvent;
    'idv-step-failed': StepFailedEvent;
    'idv-submit-intent': SubmitIntentEvent;
    'idv-attempts': AttemptsEvent;
  }
}
