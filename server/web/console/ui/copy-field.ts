import { html, LitElement, type PropertyDeclarations } from 'lit';
import { sharedStyles } from '../../../../src/components/shared-styles.ts';
import { consumeTranslator } from '../context.ts';
import { copyFieldStyles } from './copy-field-styles.ts';

/**
 * `<idv-copy-field>`: a value to hand over (a secret shown once, an invitation or verification link) in a
 * read-only field with a Copy button. The field stays selectable, so copying by hand works wherever the
 * Clipboard API does not; the outcome is announced. Its words come from the console's translator.
 *
 * @example
 *   html`<idv-copy-field label="Signing secret" .value=${secret}></idv-copy-field>`
 */
export class CopyField extends LitElement {
  static override styles = [sharedStyles, copyFieldStyles];

  static override properties: PropertyDeclarations = {
    label: {},
    value: {},
    status: { state: true },
  };

  declare label: string;
  declare value: string;
  /** What the last copy did, announced: 'copied', 'failed', or '' before any. */
  declare status: '' | 'copied' | 'failed';
  readonly #t = consumeTranslator(this);

  constructor() {
    super();
    this.label = '';
    this.value = '';
    this.status = '';
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.value);
      this.status = 'copied';
    } catch {
      this.status = 'failed';
      this.renderRoot.querySelector('input')?.select();
    }
  }

  override render() {
    const t = this.#t();
    return html`<label for="value">${this.label}</label>
      <div class="row">
        <input id="value" readonly .value=${this.value} spellcheck="false" autocomplete="off"
          @focus=${(event: FocusEvent) => (event.target as HTMLInputElement).select()} />
        <button type="button" class="secondary" @click=${() => void this.#copy()}>${t('copy')}</button>
      </div>
      <p class="status" role="status">${
        this.status === 'copied' ? t('copied') : this.status === 'failed' ? t('copyFailed') : ''
      }</p>`;
  }
}

if (!customElements.get('idv-copy-field')) customElements.define('idv-copy-field', CopyField);
