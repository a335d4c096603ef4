import { LitElement, type PropertyDeclarations } from 'lit';
import type { StepId, VerifyApiClient } from '../api/verify-api.ts';
import { sharedStyles } from '../components/shared-styles.ts';
import type { FlowEvent } from '../flow/flow-types.ts';
import { FALLBACK_TRANSLATE, type Translate } from '../i18n/localize.ts';
import { problemMessage } from '../i18n/problem-message.ts';
import { AttemptsEvent, FlowIntentEvent, StepFailedEvent } from './step-events.ts';

/**
 * Base of every step screen: the shell hands it the API client and translations; it reports progress
 * as flow events and failures to the shell. Reactive fields are `declare`d and set in the constructor
 * so no class-field semantics (TS `useDefineForClassFields`, esbuild, Node type stripping) can shadow
 * Lit's accessors.
 */
export class StepElement extends LitElement {
  static override styles = [sharedStyles];
  static override properties: PropertyDeclarations = {
    api: { attribute: false },
    t: { attribute: false },
    busy: { state: true },
    errorMessage: { state: true },
  };

  declare api: VerifyApiClient | null;
  declare t: Translate;
  declare busy: boolean;
  declare errorMessage: string;

  constructor() {
    super();
    this.api = null;
    this.t = FALLBACK_TRANSLATE;
    this.busy = false;
    this.errorMessage = '';
  }

  /** Moves focus to the screen's heading so screen readers start reading the new step. */
  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  protected emitFlow(event: FlowEvent): void {
    this.dispatchEvent(new FlowIntentEvent(event));
  }

  /** Hands an error to the shell; shows it here if the shell did not take over. */
  protected fail(error: unknown): void {
    const event = new StepFailedEvent(error);
    this.dispatchEvent(event);
    if (!event.handled) this.errorMessage = problemMessage(error, this.t);
  }

  /** Tells the shell how many attempts the server says are left at `step` (servers that say nothing: nothing). */
  protected reportAttempts(
    step: StepId,
    answer: { attempts_remaining?: number; session_status?: string },
    failed: boolean,
  ): void {
    if (typeof answer.attempts_remaining !== 'number') return;
    this.dispatchEvent(new AttemptsEvent(step, answer.attempts_remaining, failed, answer.session_status));
  }

  /** Runs an API call with `busy` set and errors reported; resolves null on failure. */
  protected async run<T>(work: (api: VerifyApiClient) => Promise<T>): Promise<{ value: T } | null> {
    if (!this.api || this.busy) return null;
    this.busy = true;
    this.errorMessage = '';
    try {
      return { value: await work(this.api) };
    } catch (error) {
      this.fail(error);
      return null;
    } finally {
      this.busy = false;
    }
  }
}
