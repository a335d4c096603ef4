import { html, type PropertyDeclarations } from 'lit';
import { StepElement } from './step-element.ts';

/** Version of the consent text below; recorded by the server with the time, IP and user agent. */
export const CONSENT_VERSION = '2025-01';

/** Consent: nothing is collected before the end-user agrees; declining cancels the session. */
export class ConsentStep extends StepElement {
  static override properties: PropertyDeclarations = {
    tenantName: { attribute: false },
    locale: { attribute: false },
    agreed: { state: true },
  };

  declare tenantName: string;
  declare locale: string;
  declare agreed: boolean;

  constructor() {
    super();
    this.tenantName = '';
    this.locale = 'en';
    this.agreed = false;
  }

  async #answer(accepted: boolean): Promise<void> {
    const done = await this.run((api) =>
      api.giveConsent({ accepted, consent_version: CONSENT_VERSION, locale: this.locale }),
    );
    if (done) this.emitFlow({ type: accepted ? 'consent_given' : 'consent_declined' });
  }

  override render() {
    const { t } = this;
    return html`
      <h2 tabindex="-1">${t('consentTitle')}</h2>
      <p>${t('consentBody', { tenant: this.tenantName || t('tenantFallback') })}</p>
      <div class="check">
        <input
          id="agree"
          type="checkbox"
          .checked=${this.agreed}
          @change=${(e: Event) => {
            this.agreed = (e.target as HTMLInputElement).checked;
          }}
        />
        <label for="agree">${t('consentCheckbox')}</label>
      </div>
      ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
      <div class="actions">
        <button part="button primary" ?disabled=${!this.agreed || this.busy} @click=${() => this.#answer(true)}>
          ${t('consentAccept')}
        </button>
        <button part="button" class="secondary" ?disabled=${this.busy} @click=${() => this.#answer(false)}>
          ${t('consentDecline')}
        </button>
      </div>
    `;
  }
}
