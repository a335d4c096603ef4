import { css, html, type ReactiveControllerHost } from 'lit';
import type { DetailField, DocumentPrefill } from '../api/verify-api.ts';
import { MRZ_SHAPE, type MrzFormat } from '../capture/mrz-formats.ts';
import { type MrzFields, readMrz } from '../capture/mrz-input.ts';
import type { Translate } from '../i18n/localize.ts';
import { mrzProblemText } from './mrz-messages.ts';

/**
 * The details form's machine-readable zone field, loaded on demand (a chunk of its own: the script-tag
 * bundle has no room for an MRZ reader most end-users never need). The document step renders it in
 * its form and asks it at submit time.
 */

/** What the field needs from the document step. */
export interface MrzFieldHost extends ReactiveControllerHost {
  t: Translate;
  busy: boolean;
  /** The session's country, which the form offers as a guessed nationality. */
  country: string;
  prefill: DocumentPrefill | null;
  renderRoot: HTMLElement | DocumentFragment;
}

/** The MRZ as printed: fixed-width characters, one line per line, scrolled rather than wrapped. */
const styles = css`
  .mrz-hint {
    margin-block-end: 0.5rem;
  }
  textarea {
    font: 1rem/1.6 ui-monospace, Menlo, Consolas, 'Liberation Mono', monospace;
    letter-spacing: 0.05em;
    text-transform: uppercase;
    white-space: pre;
    direction: ltr;
    resize: vertical;
    color: inherit;
    background: var(--idv-color-surface);
    inline-size: 100%;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
  }
  textarea:focus-visible {
    outline: var(--idv-focus-ring);
    outline-offset: 2px;
  }
`;

export class MrzField {
  /** Why the typed zone cannot be used (ours, or the server's), shown next to the field. */
  error = '';
  /** Empty fields of the form were filled in from the typed zone. */
  filled = false;
  readonly #host: MrzFieldHost;
  readonly #formats: readonly MrzFormat[];
  /** Lines and length of the chosen document's usual MRZ, for its hint and errors; null when unknown. */
  readonly #shape: { lines: number; length: number } | null;

  /** `formats`: what the document may print, its usual one first; `known`: whether the type was chosen. */
  constructor(host: MrzFieldHost, formats: readonly MrzFormat[], known: boolean) {
    this.#host = host;
    this.#formats = formats;
    this.#shape = known && formats[0] ? MRZ_SHAPE[formats[0]] : null;
    // A constructed sheet, as Lit's own styles: the hosted page's CSP allows no inline <style>.
    const root = host.renderRoot as ShadowRoot;
    const sheet = styles.styleSheet;
    if (sheet && root.adoptedStyleSheets && !root.adoptedStyleSheets.includes(sheet)) {
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    }
  }

  #set(error: string, filled = this.filled): void {
    if (error === this.error && filled === this.filled) return;
    this.error = error;
    this.filled = filled;
    this.#host.requestUpdate();
  }

  #area(): HTMLTextAreaElement | null {
    return this.#host.renderRoot.querySelector('#mrz');
  }

  render() {
    const { t } = this.#host;
    const shape = this.#shape;
    const hint = !shape ? 'mrzHintAny' : shape.lines === 2 ? 'mrzHintTd3' : 'mrzHintTd1';
    return html`<div class="field">
        <label for="mrz">${t('fieldMrz')}</label>
        <p class="muted mrz-hint" id="mrz-hint">${t(hint)}</p>
        <textarea
          id="mrz"
          name="mrz"
          rows=${shape?.lines ?? 3}
          autocomplete="off"
          autocapitalize="characters"
          spellcheck="false"
          aria-invalid=${this.error ? 'true' : 'false'}
          aria-describedby=${this.error ? 'mrz-hint mrz-error' : 'mrz-hint'}
          ?readonly=${this.#host.busy}
          @input=${this.#onInput}
          @change=${this.#onChange}
        ></textarea>
        ${this.error ? html`<p class="error" id="mrz-error" role="alert">${this.error}</p>` : null}
      </div>
      <div role="status">
        ${this.filled ? html`<p class="muted" id="mrz-filled-note">${t('mrzFilledNote')}</p>` : null}
      </div>`;
  }

  /** Upper case as typed; a zone that checks out fills the form's empty fields and clears any error. */
  #onInput = (event: Event): void => {
    const area = event.target as HTMLTextAreaElement;
    const upper = area.value.toUpperCase();
    if (upper !== area.value) {
      const { selectionStart, selectionEnd } = area;
      area.value = upper;
      area.setSelectionRange(selectionStart, selectionEnd);
    }
    const reading = readMrz(upper, { formats: this.#formats });
    if (reading.ok) this.#set('', this.#fill(reading.fields) || this.filled);
    // Once told, the message follows the typing; before that, no message per keystroke.
    else if (this.error) this.#set(mrzProblemText(this.#host.t, reading.problem, this.#shape));
  };

  /** Leaving the field with a zone that does not check out: say why now, not at submit. */
  #onChange = (event: Event): void => {
    this.#check((event.target as HTMLTextAreaElement).value);
  };

  /** The zone as printed when it checks out, '' when none was typed, null (and the reason shown) when it does not. */
  #check(text: string): string | null {
    if (!text.trim()) {
      this.#set('');
      return '';
    }
    const reading = readMrz(text, { formats: this.#formats });
    this.#set(reading.ok ? '' : mrzProblemText(this.#host.t, reading.problem, this.#shape));
    return reading.ok ? reading.text : null;
  }

  /**
   * At submit: the zone to send ('' for none), or null when it does not check out; then the reason is
   * next to the field and focus on it, since the server would refuse it.
   */
  async take(): Promise<string | null> {
    const text = this.#check(this.#area()?.value ?? '');
    if (text === null) {
      await this.#host.updateComplete;
      this.#area()?.focus();
    }
    return text;
  }

  /** The server refused the zone (it also checks the state codes against ICAO's list). */
  refused(): void {
    this.#set(this.#host.t('mrzErrorServer'));
  }

  /**
   * Puts what the zone says into the fields still empty; typed or read values stay. The nationality
   * the session's country suggested is a guess, so the zone's replaces it. True when any was filled.
   */
  #fill(fields: MrzFields): boolean {
    const form = this.#host.renderRoot.querySelector('form');
    let filled = false;
    for (const name of Object.keys(fields) as DetailField[]) {
      const input = form?.elements.namedItem(name) as HTMLInputElement | null;
      const value = fields[name as keyof MrzFields];
      if (!input || !value) continue;
      const guessed =
        name === 'nationality' &&
        input.value === this.#host.country &&
        !this.#host.prefill?.details.nationality;
      if (input.value.trim() && !guessed) continue;
      input.value = value;
      filled = true;
    }
    return filled;
  }
}
