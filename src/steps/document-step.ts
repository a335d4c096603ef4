import { css, html, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { keyed } from 'lit/directives/keyed.js';
import { VerifyApiError } from '../api/verify-api-error.ts';
import type {
  DetailField,
  DocumentPrefill,
  ExtractedFields,
  IdDocumentType,
  QualityIssue,
  Side,
} from '../api/verify-api.ts';
import { MRZ_FORMATS } from '../capture/mrz-formats.ts';
import type { CameraFailedEvent, CapturedEvent, CaptureModeEvent } from '../components/capture-events.ts';
import type { CaptureView } from '../components/capture-view.ts';
import { HandoffRequestEvent } from '../components/handoff-request-event.ts';
import type { CameraIssue, CaptureMode } from '../flow/flow-types.ts';
import { fieldMessage, fieldProblems } from '../i18n/problem-message.ts';
import { DOCUMENT_LABEL } from './document-labels.ts';
import type { MrzField } from './document-mrz-field.ts';
import { QUALITY_ISSUE_TEXT } from './quality-issue-text.ts';
import { StepElement } from './step-element.ts';

export type DocumentScreen = 'document_type' | 'document_front' | 'document_back' | 'document_details';

const DETAIL_FIELDS = [
  ['first_name', 'fieldFirstName', 'text', 'given-name'],
  ['last_name', 'fieldLastName', 'text', 'family-name'],
  ['date_of_birth', 'fieldDateOfBirth', 'date', 'bday'],
  ['nationality', 'fieldNationality', 'text', 'off'],
  ['document_number', 'fieldDocumentNumber', 'text', 'off'],
  ['expiry_date', 'fieldExpiryDate', 'date', 'off'],
] as const satisfies readonly (readonly [DetailField, ...string[]])[];

/** A photo that plainly is not the chosen document: retake it (it spent no attempt). */
const TYPE_MISMATCH = 'document_type_mismatch';

/**
 * The identity document step, one element across its four screens (so what the server read from the
 * front survives to the confirm form): choose type → front → back (when the type has one) → confirm.
 */
export class DocumentStep extends StepElement {
  static override styles = [
    ...StepElement.styles,
    css`
      ul.choices {
        list-style: none;
        padding: 0;
        margin: 0;
        display: grid;
        gap: 0.75rem;
      }
      ul.choices button {
        inline-size: 100%;
        justify-content: flex-start;
        background: var(--idv-color-surface);
        color: var(--idv-color-text);
        border: 1px solid var(--idv-color-border);
      }
      .grid {
        display: grid;
        gap: 0 1rem;
        grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
      }
      dl.read {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.5rem 1rem;
        margin: 0 0 1rem;
      }
      dl.read dt {
        font-weight: 600;
      }
      dl.read dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .refused {
        border: 1px solid var(--idv-color-border);
        border-radius: var(--idv-radius);
        padding: 0.75rem 1rem;
        margin-block-end: 1rem;
      }
      .refused ul {
        margin-block: 0.5rem;
        padding-inline-start: 1.25rem;
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    screen: { attribute: false },
    documentTypes: { attribute: false },
    documentType: { attribute: false },
    country: { attribute: false },
    captureMode: { attribute: false },
    cameraIssue: { attribute: false },
    allowUpload: { attribute: false },
    offerHandoff: { attribute: false },
    locale: { attribute: false },
    issues: { state: true },
    refused: { state: true },
    prefill: { state: true },
    readingSession: { state: true },
    editing: { state: true },
    fieldErrors: { state: true },
  };

  declare screen: DocumentScreen;
  declare documentTypes: IdDocumentType[];
  declare documentType: IdDocumentType | null;
  /** ISO 3166-1 alpha-3 of the session; sent as `issuing_country` and used to prefill nationality. */
  declare country: string;
  declare captureMode: CaptureMode;
  declare cameraIssue: CameraIssue | null;
  declare allowUpload: boolean;
  /** Server quality issues of the last upload; non-empty means "retake". */
  declare issues: QualityIssue[];
  /** Whether "Continue on your phone" may be offered here (the shell says: not on a phone itself). */
  declare offerHandoff: boolean;
  /**
   * The server refused the last photo for quality: auto-capture waits until the person acts (try again,
   * the shutter, upload a file or the phone), so the camera never fires again by itself into the same
   * refusal.
   */
  declare refused: boolean;
  /** The widget's language, for showing dates read off the document. */
  declare locale: string;
  /** What the server read off the document (the session's `prefill`), once the details screen asked. */
  declare prefill: DocumentPrefill | null;
  /** The details screen is reading the session for `prefill`. */
  declare readingSession: boolean;
  /** The end-user said something read off the document is wrong: the form replaces the summary. */
  declare editing: boolean;

  /** The server's complaint per field of the details form (`param`/`errors[]` of its problem). */
  declare fieldErrors: Partial<Record<DetailField, string>>;

  /** Fields the server read from the document, merged across sides. */
  extracted: ExtractedFields = {};
  /** The MRZ field of the details form, once its chunk has loaded (see #loadMrzField). */
  #mrzField: MrzField | null = null;
  /** The server already counts the identity document step as done (details taken from the document). */
  #detailsOnServer = false;
  #lastErrorCode = '';

  constructor() {
    super();
    this.screen = 'document_type';
    this.documentTypes = [];
    this.documentType = null;
    this.country = '';
    this.captureMode = 'camera';
    this.cameraIssue = null;
    this.allowUpload = true;
    this.offerHandoff = false;
    this.locale = 'en';
    this.issues = [];
    this.refused = false;
    this.prefill = null;
    this.readingSession = false;
    this.editing = false;
    this.fieldErrors = {};
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('screen')) {
      this.issues = [];
      this.refused = false;
      this.errorMessage = '';
      if (this.screen === 'document_details') void this.#readPrefill();
    }
    if (changed.has('documentType')) this.#mrzField = null;
  }

  protected override fail(error: unknown): void {
    this.#lastErrorCode = error instanceof VerifyApiError ? error.code : '';
    super.fail(error);
    if (this.screen !== 'document_details') return;
    const fields = fieldProblems(error).filter(
      (f) => f.param === 'mrz' || DETAIL_FIELDS.some(([name]) => name === f.param),
    );
    if (fields.length === 0) return;
    // Named fields: each message goes next to its field, the alert only says where to look.
    this.fieldErrors = Object.fromEntries(
      fields.filter((f) => f.param !== 'mrz').map((f) => [f.param, fieldMessage(f, this.t)]),
    );
    // The server checks the zone as we do, plus its list of state codes: say so in the field's words.
    if (fields.some((f) => f.param === 'mrz')) this.#mrzField?.refused();
    this.errorMessage = this.t('detailsFixFields');
    this.editing = true;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLInputElement>(`#${fields[0]?.param}`)?.focus(),
    );
  }

  /**
   * Reads the session for what the server read off the document (also on a resumed visit, where no
   * upload answer is in memory). Quiet on failure: the form is there to type into.
   */
  async #readPrefill(): Promise<void> {
    const api = this.api;
    if (!api) return;
    this.readingSession = true;
    this.editing = false;
    try {
      const session = await api.getSession();
      this.prefill = session.prefill?.id_document ?? null;
      this.#detailsOnServer =
        session.steps?.some((s) => s.step === 'id_document' && s.status === 'completed') ?? false;
    } catch {
      this.prefill = null;
    } finally {
      this.readingSession = false;
    }
  }

  async #upload(side: Side, event: CapturedEvent): Promise<void> {
    event.stopPropagation();
    if (!this.documentType) return;
    const type = this.documentType;
    const result = await this.run((api) =>
      api.uploadDocument({
        step: 'id_document',
        document_type: type,
        side,
        image: event.blob,
        ...(this.country ? { issuing_country: this.country } : {}),
      }),
    );
    if (!result) {
      // Not the chosen document (a selfie as a passport, say): the message says so; back to the camera.
      if (this.#lastErrorCode === TYPE_MISMATCH) {
        await this.renderRoot.querySelector<CaptureView>('idv-capture-view')?.reset();
      }
      return;
    }
    const { quality, extracted } = result.value;
    const failed = !quality.ok && quality.issues.length > 0;
    // A refusal for capture quality costs no attempt (API.md §9): nothing failed that counts.
    this.reportAttempts('id_document', result.value, false);
    if (failed) {
      // The server's check is the one that counts: say why, back to the live picture, and wait for the
      // person: try again, the shutter, a file or the phone.
      this.issues = quality.issues;
      this.refused = true;
      await this.renderRoot.querySelector<CaptureView>('idv-capture-view')?.reset();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLButtonElement>('#try-again')?.focus();
      return;
    }
    this.extracted = { ...this.extracted, ...(extracted ?? {}) };
    this.emitFlow({ type: 'side_accepted', side });
  }

  /** "Try again" after a refusal: auto-capture resumes, focus goes to the shutter. */
  async #tryAgain(): Promise<void> {
    this.refused = false;
    this.issues = [];
    await this.updateComplete;
    const view = this.renderRoot.querySelector<CaptureView>('idv-capture-view');
    await view?.updateComplete;
    view?.renderRoot.querySelector<HTMLElement>('button, input')?.focus();
  }

  /** "Yes, continue" on what was read: the server has the details already, or gets exactly those. */
  async #acceptRead(): Promise<void> {
    const read: DocumentPrefill['details'] = this.prefill?.details ?? {};
    if (this.#detailsOnServer) {
      this.emitFlow({ type: 'details_confirmed' });
      return;
    }
    const done = await this.run((api) =>
      api.putDetails({
        step: 'id_document',
        first_name: read.first_name ?? '',
        last_name: read.last_name ?? '',
        date_of_birth: read.date_of_birth ?? '',
        nationality: (read.nationality || this.country).toUpperCase(),
        document_number: read.document_number ?? '',
        expiry_date: read.expiry_date ?? '',
        ...(this.extracted.mrz ? { mrz: this.extracted.mrz } : {}),
      }),
    );
    if (done) this.emitFlow({ type: 'details_confirmed' });
  }

  async #editRead(): Promise<void> {
    this.editing = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('input')?.focus();
  }

  async #confirm(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    this.fieldErrors = {};
    const data = new FormData(form);
    const value = (name: string) => String(data.get(name) ?? '').trim();
    // A typed zone that does not check out stops here, with the reason next to it: the server would refuse it.
    const typed = this.#mrzField ? await this.#mrzField.take() : '';
    if (typed === null) return;
    const mrz = typed || this.extracted.mrz;
    const done = await this.run((api) =>
      api.putDetails({
        step: 'id_document',
        first_name: value('first_name'),
        last_name: value('last_name'),
        date_of_birth: value('date_of_birth'),
        nationality: value('nationality').toUpperCase(),
        document_number: value('document_number'),
        expiry_date: value('expiry_date'),
        ...(mrz ? { mrz } : {}),
      }),
    );
    if (done) this.emitFlow({ type: 'details_confirmed' });
  }

  override render() {
    switch (this.screen) {
      case 'document_type':
        return this.#renderTypes();
      case 'document_front':
      case 'document_back':
        return this.#renderCapture(this.screen === 'document_front' ? 'front' : 'back');
      case 'document_details':
        return this.#renderDetails();
    }
  }

  #renderTypes() {
    const { t } = this;
    return html`
      <h2 tabindex="-1">${t('docTypeTitle')}</h2>
      <p class="muted" id="types-hint">${t('docTypeHint')}</p>
      <ul class="choices" aria-describedby="types-hint">
        ${this.documentTypes.map(
          (type) => html`<li>
            <button
              part="choice"
              data-type=${type}
              @click=${() => this.emitFlow({ type: 'document_type_chosen', documentType: type })}
            >
              ${t(DOCUMENT_LABEL[type])}
            </button>
          </li>`,
        )}
      </ul>
    `;
  }

  #renderCapture(side: Side) {
    const { t } = this;
    const documentName = this.documentType ? t(DOCUMENT_LABEL[this.documentType]) : '';
    const title = t(side === 'front' ? 'captureFrontTitle' : 'captureBackTitle', { document: documentName });
    return html`
      <h2 tabindex="-1">${title}</h2>
      <p class="muted">${t('captureHint')}</p>
      ${this.issues.length ? this.#renderRefusal() : null}
      ${this.busy ? html`<p role="status">${t('captureUploading')}</p>` : null}
      ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
      ${keyed(
        side,
        html`<idv-capture-view
        exportparts="button, primary, video, preview, shutter"
        .t=${t}
        .facing=${'environment'}
        .mode=${this.captureMode}
        .cameraIssue=${this.cameraIssue}
        .allowUpload=${this.allowUpload}
        .guidance=${true}
        .autoCapture=${!this.refused}
        .documentType=${this.documentType}
        .side=${side}
        .label=${title}
        ?inert=${this.busy}
        @idv-captured=${(e: CapturedEvent) => this.#upload(side, e)}
        @idv-camera-failed=${(e: CameraFailedEvent) => this.emitFlow({ type: 'camera_failed', reason: e.reason })}
        @idv-capture-mode=${(e: CaptureModeEvent) => this.emitFlow({ type: 'capture_mode_chosen', mode: e.mode })}
      ></idv-capture-view>`,
      )}
      ${
        side === 'front' && this.documentTypes.length > 1
          ? html`<div class="actions">
              <button class="secondary" @click=${() => this.emitFlow({ type: 'back' })}>${t('back')}</button>
            </div>`
          : null
      }
    `;
  }

  /**
   * What the server refused and every way on, right where the person is: try again (auto-capture
   * resumes), upload a file instead, or continue on a phone. Announced once (role=alert).
   */
  #renderRefusal() {
    const { t } = this;
    const camera = this.captureMode === 'camera';
    return html`<div class="refused">
      <div role="alert" class="error">
        <p>${t('retakeTitle')}</p>
        <ul>
          ${this.issues.map((issue) => html`<li>${t(QUALITY_ISSUE_TEXT[issue] ?? 'genericError')}</li>`)}
        </ul>
      </div>
      ${
        this.refused
          ? html`<div class="actions">
              <button id="try-again" part="button primary" @click=${() => this.#tryAgain()}>${t('retry')}</button>
              ${
                camera && this.allowUpload
                  ? html`<button
                      class="secondary"
                      @click=${() => this.emitFlow({ type: 'capture_mode_chosen', mode: 'upload' })}
                    >
                      ${t('captureUploadInstead')}
                    </button>`
                  : null
              }
              ${
                this.offerHandoff
                  ? html`<button class="secondary" @click=${() => this.dispatchEvent(new HandoffRequestEvent())}>
                      ${t('handoffButton')}
                    </button>`
                  : null
              }
            </div>`
          : null
      }
    </div>`;
  }

  #renderDetails() {
    const { t } = this;
    if (this.readingSession) {
      return html`<h2 tabindex="-1">${t('detailsTitle')}</h2>
        <div class="spinner" aria-hidden="true"></div>
        <p role="status">${t('loading')}</p>`;
    }
    const read = this.prefill;
    if (read && !read.details_required && !this.editing) return this.#renderRead(read);
    const fromDocument: Record<string, string | undefined> = { ...this.extracted, ...read?.details };
    const prefill: Record<string, string | undefined> = {
      nationality: this.country || undefined,
      ...fromDocument,
    };
    // Only values read off the document earn the note; the session's country as nationality is a guess.
    const readSome = DETAIL_FIELDS.some(([name]) => fromDocument[name]);
    return html`
      <h2 tabindex="-1">${t('detailsTitle')}</h2>
      <p class="muted">${t('detailsHint')}</p>
      ${readSome ? html`<p class="muted" id="prefilled-note">${t('detailsPrefilledNote')}</p>` : null}
      <form @submit=${this.#confirm} novalidate>
        ${!this.extracted.mrz && read?.source !== 'mrz' ? this.#loadMrzField()?.render() : null}
        <div class="grid">
          ${DETAIL_FIELDS.map(([name, label, type, autocomplete]) => {
            const problem = this.fieldErrors[name];
            return html`<div class="field">
              <label for=${name}>${t(label)}</label>
              <input
                id=${name}
                name=${name}
                type=${type}
                autocomplete=${autocomplete}
                required
                aria-invalid=${problem ? 'true' : 'false'}
                aria-describedby=${ifDefined(problem ? `${name}-error` : undefined)}
                .value=${prefill[name] ?? ''}
                ?readonly=${this.busy}
              />
              ${problem ? html`<p class="error" id=${`${name}-error`}>${problem}</p>` : null}
            </div>`;
          })}
        </div>
        ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
        <div class="actions">
          <button part="button primary" type="submit" ?disabled=${this.busy}>${t('detailsConfirm')}</button>
          <button type="button" class="secondary" @click=${() => this.emitFlow({ type: 'back' })}>${t('back')}</button>
        </div>
      </form>
    `;
  }

  /**
   * The machine-readable zone field, for a document that prints one when the server read none: typed
   * or pasted, checked as typed, and once it checks out the source of the form's empty fields. Its
   * chunk loads the first time it is needed; null until then, and for documents without an MRZ.
   */
  #loadMrzField(): MrzField | null {
    const types = this.documentType ? [this.documentType] : this.documentTypes;
    const formats = [...new Set(types.flatMap((type) => MRZ_FORMATS[type]))];
    if (formats.length === 0 || this.#mrzField) return this.#mrzField;
    const type = this.documentType;
    import('./document-mrz-field.ts').then(
      ({ MrzField }) => {
        if (this.#mrzField || type !== this.documentType) return;
        this.#mrzField = new MrzField(this, formats, type !== null);
        this.requestUpdate();
      },
      // The chunk did not load (offline): the field is optional, the form works without it.
      () => {},
    );
    return null;
  }

  /** The short confirmation that replaces the form when the server read everything off the document. */
  #renderRead(read: DocumentPrefill) {
    const { t } = this;
    return html`
      <h2 tabindex="-1">${t('detailsReadTitle')}</h2>
      <p class="muted">${t('detailsReadHint')}</p>
      <dl class="read">
        ${DETAIL_FIELDS.map(([name, label, type]) => {
          const value = read.details[name];
          return value
            ? html`<dt>${t(label)}</dt>
                <dd>${type === 'date' ? this.#date(value) : value}</dd>`
            : null;
        })}
      </dl>
      ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
      <div class="actions">
        <button part="button primary" ?disabled=${this.busy} @click=${() => this.#acceptRead()}>
          ${t('detailsReadConfirm')}
        </button>
        <button class="secondary" ?disabled=${this.busy} @click=${() => this.#editRead()}>${t('detailsReadWrong')}</button>
      </div>
    `;
  }

  /** `YYYY-MM-DD` in the end-user's language (as written on no document, but as they read dates). */
  #date(value: string): string {
    const date = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) return value;
    try {
      return new Intl.DateTimeFormat(this.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
    } catch {
      return value;
    }
  }
}
