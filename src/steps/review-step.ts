import { css, html, type PropertyDeclarations } from 'lit';
import type { SandboxOutcome, StepId } from '../api/verify-api.ts';
import { SubmitIntentEvent } from './step-events.ts';
import { StepElement } from './step-element.ts';
import { STEP_TITLE } from './step-titles.ts';

const OUTCOMES: readonly [SandboxOutcome, 'statusApproved' | 'statusRejected' | 'statusReviewRequired'][] = [
  ['approved', 'statusApproved'],
  ['rejected', 'statusRejected'],
  ['review_required', 'statusReviewRequired'],
];

/**
 * Review and submit: what was done, then one button. In sandbox, an outcome picker lets a developer
 * force the decision (sent as `{sandbox: {outcome}}`, API.md §4).
 */
export class ReviewStep extends StepElement {
  static override styles = [
    ...StepElement.styles,
    css`
      ul.done {
        list-style: none;
        padding: 0;
        margin: 0 0 1rem;
      }
      ul.done li {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        min-height: 2rem;
      }
      ul.done li::before {
        content: '✓';
        color: var(--idv-color-success);
        font-weight: 700;
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    steps: { attribute: false },
    sandbox: { attribute: false },
    submitting: { attribute: false },
    outcome: { state: true },
  };

  declare steps: StepId[];
  declare sandbox: boolean;
  /** Set by the shell while `POST /v1/verify/complete` runs. */
  declare submitting: boolean;
  declare outcome: SandboxOutcome | '';

  constructor() {
    super();
    this.steps = [];
    this.sandbox = false;
    this.submitting = false;
    this.outcome = '';
  }

  override render() {
    const { t } = this;
    return html`
      <h2 tabindex="-1">${t('reviewTitle')}</h2>
      <p>${t('reviewBody')}</p>
      <ul class="done" aria-label=${t('reviewDone')}>
        ${this.steps.map((step) => html`<li>${t(STEP_TITLE[step])}</li>`)}
      </ul>
      ${
        this.sandbox
          ? html`<div class="field" part="sandbox-outcome">
              <label for="outcome">${t('reviewSandboxOutcome')}</label>
              <select
                id="outcome"
                @change=${(e: Event) => {
                  this.outcome = (e.target as HTMLSelectElement).value as SandboxOutcome | '';
                }}
              >
                <option value="" ?selected=${this.outcome === ''}>${t('reviewSandboxDefault')}</option>
                ${OUTCOMES.map(
                  ([value, label]) =>
                    html`<option value=${value} ?selected=${this.outcome === value}>${t(label)}</option>`,
                )}
              </select>
            </div>`
          : null
      }
      <div class="actions">
        <button
          part="button primary"
          ?disabled=${this.submitting}
          @click=${() => this.dispatchEvent(new SubmitIntentEvent(this.outcome || undefined))}
        >
          ${t('reviewSubmit')}
        </button>
      </div>
    `;
  }
}
