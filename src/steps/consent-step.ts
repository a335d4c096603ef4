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
    confirmingCancel: { state: true },
  };

  declare tenantName: string;
  declare locale: string;
  declare agreed: boolean;
  /** "No, cancel" was pressed: cancelling ends the session for good, so it is asked once more. */
  declare confirmingCancel: boolean;

  constructor() {
    super();
    this.tenantName = '';
    this.locale = 'en';
    this.agreed = false;
    this.confirmingCancel = false;
  }

  async #askCancel(confirming: boolean): Promise<void> {
    this.confirmingCancel = confirming;
    await this.updateComplete;
    // Focus on the safe answer when asking, back on the button that asked when not cancelling.
    this.renderRoot.querySelector<HTMLButtonElement>(confirming ? '#keep' : '#decline')?.focus();
  }

  async #answer(accepted: boolean): Promise<void> {
    const done = await this.run((api) =>
      api.giveConsent({ accepted, consent_version: CONSENT_VERSION, locale: this.locale }),
    );
    if (done) this.emitFlow({ type: accepted ? 'consent_given' : 'consent_declined' });
  }

  override render() {
    const { t } = this;
    const tenant = this.tenantName || t('tenantFallback');
    if (this.confirmingCancel) {
      return html`
        <h2 tabindex="-1">${t('consentTitle')}</h2>
        <div role="group" aria-labelledby="cancel-title" aria-describedby="cancel-body">
          <p id="cancel-title"><strong>${t('cancelConfirmTitle')}</strong></p>
          <p id="cancel-body">${t('cancelConfirmBody', { tenant })}</p>
          ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
          <div class="actions">
            <button id="keep" part="button primary" ?disabled=${this.busy} @click=${() => this.#askCancel(false)}>
              ${t('cancelConfirmNo')}
            </button>
            <button part="button" class="secondary" ?disabled=${this.busy} @click=${() => this.#answer(false)}>
              ${t('cancelConfirmYes')}
            </button>
          </div>
        </div>
      `;
    }
    return html`
      <h2 tabindex="-1">${t('consentTitle')}</h2>
      <p>${t('consentBody', { tenant })}</p>
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
        <button id="decline" part="button" class="secondary" ?disabled=${this.busy} @click=${() => this.#askCancel(true)}>
          ${t('consentDecline')}
        </button>
      </div>
    `;
  }
}
