import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { progressOf, stepOfScreen } from '../flow/build-context.ts';
import type { FlowState } from '../flow/flow-types.ts';
import type { Translate } from '../i18n/localize.ts';
import { STEP_TITLE } from '../steps/step-titles.ts';

type FocusHost = ReactiveControllerHost & { readonly renderRoot: ParentNode };

/** A screen element that knows where its heading is (steps, the handoff view). */
type FocusableScreen = HTMLElement & { focusHeading?: () => Promise<void> };

/**
 * What a screen reader hears when a step opens: "Step 2 of 4: Identity document". Nothing for screens
 * outside the step count (loading, results, errors), whose headings take focus and speak for themselves.
 *
 * @example
 *   stepAnnouncement({ phase: 'step', screen: 'consent', ctx }, t) // → 'Step 1 of 3: Consent'
 */
export function stepAnnouncement(state: FlowState, t: Translate): string {
  if (state.phase !== 'step') return '';
  const { current, total } = progressOf(state.screen, state.ctx);
  const title = t(STEP_TITLE[stepOfScreen(state.screen)]);
  return t('stepAnnouncement', { current, total, title });
}

/**
 * Focus and announcements for a host that swaps screens: the text of its polite live region, and
 * moving focus to the new screen's heading so keyboard and screen-reader users land on it.
 *
 * @example
 *   #focus = new FocusController(this);
 *   render() { return html`<div role="status" aria-live="polite">${this.#focus.announcement}</div>…`; }
 */
export class FocusController implements ReactiveController {
  readonly #host: FocusHost;
  readonly #screenContainer: string;
  #announcement = '';

  /** `screenContainer`: selector of the element (in the render root) whose first child is the screen. */
  constructor(host: FocusHost, screenContainer = '[part~="body"]') {
    this.#host = host;
    this.#screenContainer = screenContainer;
    host.addController(this);
  }

  /** The live region's text. */
  get announcement(): string {
    return this.#announcement;
  }

  /** Nothing to set up: the host drives this controller (a `ReactiveController` needs one hook). */
  hostConnected(): void {}

  /** Speaks `text` through the live region (an empty string silences it). */
  announce(text: string): void {
    if (text === this.#announcement) return;
    this.#announcement = text;
    this.#host.requestUpdate();
  }

  /** After the next render: the screen's own `focusHeading()`, else its first `h2`. */
  async focusHeading(): Promise<void> {
    await this.#host.updateComplete;
    const container = this.#host.renderRoot.querySelector(this.#screenContainer);
    const screen = container?.firstElementChild as FocusableScreen | null;
    if (screen?.focusHeading) await screen.focusHeading();
    else container?.querySelector<HTMLElement>('h2')?.focus();
  }
}
