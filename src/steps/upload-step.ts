import { html, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { AddressDocumentType, BusinessDocumentType, QualityIssue } from '../api/verify-api.ts';
import type { CameraFailedEvent, CapturedEvent, CaptureModeEvent } from '../components/capture-events.ts';
import type { CaptureView } from '../components/capture-view.ts';
import type { CameraIssue, CaptureMode } from '../flow/flow-types.ts';
import type { MessageKey } from '../i18n/en.ts';
import { DOCUMENT_LABEL } from './document-labels.ts';
import { QUALITY_ISSUE_TEXT } from './quality-issue-text.ts';
import { StepElement } from './step-element.ts';

export type UploadStepId = 'proof_of_address' | 'business_document';
type UploadDocumentType = AddressDocumentType | BusinessDocumentType;

/** Document types the API accepts per upload step (API.md §9). */
const TYPES: Record<UploadStepId, readonly UploadDocumentType[]> = {
  proof_of_address: ['utility_bill', 'bank_statement', 'tax_document'],
  business_document: ['registration_certificate'],
};

const TEXT: Record<UploadStepId, { title: MessageKey; hint: MessageKey }> = {
  proof_of_address: { title: 'uploadPoaTitle', hint: 'uploadPoaHint' },
  business_document: { title: 'uploadBusinessTitle', hint: 'uploadBusinessHint' },
};

/**
 * A single-page document step (proof of address, business document): pick the kind, then a photo or a
 * file. Paper documents are often PDFs turned into photos on the phone, so upload is offered first.
 */
export class UploadStep extends StepElement {
  static override properties: PropertyDeclarations = {
    step: { attribute: false },
    captureMode: { state: true },
    cameraIssue: { attribute: false },
    allowUpload: { attribute: false },
    offered: { attribute: false },
    documentType: { state: true },
    issues: { state: true },
  };

  declare step: UploadStepId;
  declare captureMode: CaptureMode;
  declare cameraIssue: CameraIssue | null;
  declare allowUpload: boolean;
  /** Types the server accepts for this step, when it says; else every type the API defines. */
  declare offered: readonly UploadDocumentType[] | null;
  declare documentType: UploadDocumentType;
  declare issues: QualityIssue[];

  constructor() {
    super();
    this.step = 'proof_of_address';
    this.captureMode = 'upload';
    this.cameraIssue = null;
    this.allowUpload = true;
    this.offered = null;
    this.documentType = 'utility_bill';
    this.issues = [];
  }

  #types(): readonly UploadDocumentType[] {
    const known = TYPES[this.step];
    const offered = this.offered?.filter((type) => known.includes(type)) ?? [];
    return offered.length > 0 ? offered : known;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('step') || changed.has('offered')) && !this.#types().includes(this.documentType)) {
      this.documentType = this.#types()[0] ?? 'utility_bill';
    }
  }

  async #upload(event: CapturedEvent): Promise<void> {
    event.stopPropagation();
    const step = this.step;
    const result = await this.run((api) =>
      api.uploadDocument({ step, document_type: this.documentType, image: event.blob }),
    );
    if (!result) return;
    const { quality } = result.value;
    const failed = !quality.ok && quality.issues.length > 0;
    // A refusal for capture quality costs no attempt (API.md §9): nothing failed that counts.
    this.reportAttempts(step, result.value, false);
    if (failed) {
      this.issues = quality.issues;
      await this.renderRoot.querySelector<CaptureView>('idv-capture-view')?.reset();
      return;
    }
    this.emitFlow({ type: 'step_completed', step });
  }

  override render() {
    const { t } = this;
    const types = this.#types();
    const text = TEXT[this.step];
    return html`
      <h2 tabindex="-1">${t(text.title)}</h2>
      <p class="muted">${t(text.hint)}</p>
      ${
        types.length > 1
          ? html`<div class="field">
              <label for="kind">${t('uploadDocumentType')}</label>
              <select
                id="kind"
                @change=${(e: Event) => {
                  this.documentType = (e.target as HTMLSelectElement).value as UploadDocumentType;
                }}
              >
                ${types.map(
                  (type) =>
                    html`<option value=${type} ?selected=${type === this.documentType}>${t(DOCUMENT_LABEL[type])}</option>`,
                )}
              </select>
            </div>`
          : null
      }
      ${
        this.issues.length
          ? html`<div role="alert" class="error">
              <p>${t('retakeTitle')}</p>
              <ul>
                ${this.issues.map((issue) => html`<li>${t(QUALITY_ISSUE_TEXT[issue] ?? 'genericError')}</li>`)}
              </ul>
            </div>`
          : null
      }
      ${this.busy ? html`<p role="status">${t('captureUploading')}</p>` : null}
      ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
      <idv-capture-view
        exportparts="button, primary, video, preview, shutter"
        .t=${t}
        .facing=${'environment'}
        .mode=${this.captureMode}
        .cameraIssue=${this.cameraIssue}
        .allowUpload=${true}
        .guidance=${false}
        .label=${t(text.title)}
        ?inert=${this.busy}
        @idv-captured=${(e: CapturedEvent) => this.#upload(e)}
        @idv-camera-failed=${(e: CameraFailedEvent) => {
          this.captureMode = 'upload';
          this.emitFlow({ type: 'camera_failed', reason: e.reason });
        }}
        @idv-capture-mode=${(e: CaptureModeEvent) => {
          // Local choice: paper documents start on upload whatever the identity document used.
          this.captureMode = e.mode;
        }}
      ></idv-capture-view>
    `;
  }
}
