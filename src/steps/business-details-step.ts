import { css, html, type PropertyDeclarations } from 'lit';
import { StepElement } from './step-element.ts';

/** ISO 3166-1 alpha-3, the shape the API validates; checked here so the end-user sees why at once. */
const ALPHA3 = '[A-Za-z]{3}';

/** Business details: the legal entity the representative acts for (API.md §9 `PUT /v1/verify/details`). */
export class BusinessDetailsStep extends StepElement {
  static override styles = [
    ...StepElement.styles,
    css`
      .grid {
        display: grid;
        gap: 0 1rem;
        grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    country: { attribute: false },
  };

  /** The session's country, prefilled as the jurisdiction. */
  declare country: string;

  constructor() {
    super();
    this.country = '';
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const value = (name: string) => String(data.get(name) ?? '').trim();
    const done = await this.run((api) =>
      api.putDetails({
        step: 'business_details',
        legal_name: value('legal_name'),
        registration_number: value('registration_number'),
        jurisdiction: value('jurisdiction').toUpperCase(),
      }),
    );
    if (done) this.emitFlow({ type: 'step_completed', step: 'business_details' });
  }

  override render() {
    const { t } = this;
    return html`
      <h2 tabindex="-1">${t('businessTitle')}</h2>
      <form @submit=${this.#submit} novalidate>
        <div class="field">
          <label for="legal_name">${t('fieldLegalName')}</label>
          <input id="legal_name" name="legal_name" autocomplete="organization" required maxlength="300" />
        </div>
        <div class="grid">
          <div class="field">
            <label for="registration_number">${t('fieldRegistrationNumber')}</label>
            <input id="registration_number" name="registration_number" autocomplete="off" required maxlength="100" />
          </div>
          <div class="field">
            <label for="jurisdiction">${t('fieldJurisdiction')}</label>
            <input
              id="jurisdiction"
              name="jurisdiction"
              autocomplete="country"
              required
              pattern=${ALPHA3}
              maxlength="3"
              title=${t('invalidCountryCode')}
              .value=${this.country}
            />
          </div>
        </div>
        ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
        <div class="actions">
          <button part="button primary" type="submit" ?disabled=${this.busy}>${t('continue')}</button>
        </div>
      </form>
    `;
  }
}
