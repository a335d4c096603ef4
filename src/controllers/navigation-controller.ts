import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionStatus } from '../api/verify-api.ts';
import { IdvBeforeStepChangeEvent } from '../events/idv-before-step-change-event.ts';
import { IdvCompleteEvent } from '../events/idv-complete-event.ts';
import { IdvStepChangeEvent } from '../events/idv-step-change-event.ts';
import { IdvTokenExpiredEvent } from '../events/idv-token-expired-event.ts';
import type { StepChangeDetail } from '../events/step-change-detail.ts';
import { progressOf, stepOfScreen } from '../flow/build-context.ts';
import type { FlowEvent, FlowState } from '../flow/flow-types.ts';
import { INITIAL_STATE, TERMINAL_STATUSES, transition } from '../flow/transition.ts';

type NavigationHost = ReactiveControllerHost & EventTarget;

/** What the host does around a move; the controller owns the state and the events. */
export interface NavigationHooks {
  /** After the state changed to another screen and `idv-step-change` fired (polling, announcements). */
  moved(previous: FlowState, next: FlowState): void;
  /** The session id `idv-complete` reports. */
  sessionId(): string | null;
  /** Moves focus to the new screen (not called for the first screen: the host page keeps its focus). */
  focus(): void;
}

/** A screen's name as `idv-step-change` reports it: flow screens plus the shell's own. */
export function screenName(state: FlowState): string {
  switch (state.phase) {
    case 'step':
      return state.screen;
    case 'result':
      return `result_${state.status}`;
    case 'expired':
      return state.reason;
    default:
      return state.phase;
  }
}

/** The `detail` of `idv-before-step-change` and `idv-step-change`. */
export function changeDetail(from: FlowState, to: FlowState): StepChangeDetail {
  const step = to.phase === 'step' ? stepOfScreen(to.screen) : null;
  const progress = to.phase === 'step' ? progressOf(to.screen, to.ctx) : { current: 0, total: 0 };
  return { from: screenName(from), to: screenName(to), step, index: progress.current, total: progress.total };
}

/**
 * The flow state of a host and how it moves: runs flow events through the state machine
 * (src/flow/transition.ts), asks `idv-before-step-change` (a host page may hold a step until
 * `proceed()`), then fires `idv-step-change`, and on final screens `idv-complete` (once per status) or
 * `idv-token-expired`. `idv-ready` is not here: the session controller fires it before the first move.
 *
 * @example
 *   #navigation = new NavigationController(this, { moved: …, sessionId: () => …, focus: () => … });
 *   this.#navigation.dispatch({ type: 'consent_given' });
 */
export class NavigationController implements ReactiveController {
  readonly #host: NavigationHost;
  readonly #hooks: NavigationHooks;
  #state: FlowState = INITIAL_STATE;
  /** A move held back by `preventDefault()` on `idv-before-step-change`, applied by `proceed()`. */
  #pending: FlowState | null = null;
  /** `idv-complete` fires once per final status, also across a fresh link for the same session. */
  #completedStatus: SessionStatus | null = null;

  constructor(host: NavigationHost, hooks: NavigationHooks) {
    this.#host = host;
    this.#hooks = hooks;
    host.addController(this);
  }

  get state(): FlowState {
    return this.#state;
  }

  /** Nothing to set up: the host drives this controller (a `ReactiveController` needs one hook). */
  hostConnected(): void {}

  /**
   * Shows a state as is: no events, no focus move, no polling. For tests that render one screen
   * (the accessibility audit); the flow itself always goes through `dispatch`.
   */
  show(state: FlowState): void {
    this.#state = state;
    this.#pending = null;
    this.#host.requestUpdate();
  }

  /** Runs a flow event; a no-op event changes nothing and fires nothing. */
  dispatch(event: FlowEvent): void {
    const current = this.#state;
    const next = transition(current, event);
    if (next === current) return;
    // Same screen, new context (capture mode, a camera issue): no step change to announce.
    if (screenName(next) === screenName(current)) {
      this.#apply(next, false);
      return;
    }
    const before = new IdvBeforeStepChangeEvent(changeDetail(current, next));
    // Only real steps can be held back; error and result screens always show.
    if (next.phase === 'step' && current.phase !== 'loading' && !this.#host.dispatchEvent(before)) {
      this.#pending = next;
      return;
    }
    this.#apply(next);
  }

  /** Applies a move held back by `preventDefault()` on `idv-before-step-change`. */
  proceed(): void {
    const pending = this.#pending;
    this.#pending = null;
    if (pending) this.#apply(pending);
  }

  #apply(next: FlowState, moved = true): void {
    const previous = this.#state;
    this.#state = next;
    this.#pending = null;
    this.#host.requestUpdate();
    if (!moved) return;
    // Loading a fresh link is not a screen of its own: its `idv-ready` comes before any step change.
    if (next.phase !== 'loading')
      this.#host.dispatchEvent(new IdvStepChangeEvent(changeDetail(previous, next)));
    this.#hooks.moved(previous, next);
    if (
      next.phase === 'result' &&
      TERMINAL_STATUSES.includes(next.status) &&
      this.#completedStatus !== next.status
    ) {
      this.#completedStatus = next.status;
      this.#host.dispatchEvent(
        new IdvCompleteEvent({ session_id: this.#hooks.sessionId(), status: next.status }),
      );
    }
    if (next.phase === 'expired' && next.reason !== 'invalid_link') {
      const code = next.reason === 'session_expired' ? 'session_expired' : 'verify_token_expired';
      this.#host.dispatchEvent(new IdvTokenExpiredEvent({ code, reason: next.reason }));
    }
    // The first screen keeps the host page's focus; later ones take it so screen readers follow.
    if (previous.phase !== 'loading') this.#hooks.focus();
  }
}
