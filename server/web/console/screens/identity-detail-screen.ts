import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations } from 'lit';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { RequestOf, Schemas } from '../api/console-api.ts';
import { REVERIFICATION_REASON_CODES } from '../../../store/reverifications.ts';
import type { MessageKey } from '../i18n/en.ts';
import { codeLabel } from '../i18n/localize.ts';
import { consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { actionKey, badge, copyField } from '../ui/widgets.ts';

type Identity = Schemas['Identity'];
type ReverificationRequest = Schemas['ReverificationRequest'];
type ReverificationBody = RequestOf<'/v1/identities/{identity_id}/reverification-requests', 'post'>;

/**
 * `/console/identities/:id`: one identity. Personal values come masked from the server unless the role
 * holds `identities:read_pii` (the console never unmasks anything itself). With `reverifications:create`,
 * a re-verification can be started here; its link is shown to hand to the person.
 */
export class IdentityDetailScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    open: { state: true },
    busy: { state: true },
    formError: { state: true },
  };

  /** The open re-verification request, if any. */
  declare open: ReverificationRequest | null;
  declare busy: boolean;
  declare formError: unknown;

  constructor() {
    super();
    this.open = null;
    this.busy = false;
    this.formError = null;
  }

  /** The path parameters of this identity's operations. */
  get #params(): { id: string } {
    return { id: this.params['id'] ?? '' };
  }

  /**
   * The identity and its open re-verification request (none: 404). The request lives in `open` once
   * loaded, since starting one replaces it with the server's answer.
   */
  readonly #identity = new Task(this, {
    args: () => [this.ctx.environment, this.params['id'] ?? ''] as const,
    task: ([, id], { signal }) =>
      Promise.all([
        this.api.get('/v1/identities/{id}', { params: { id }, signal }),
        this.api
          .get('/v1/identities/{identity_id}/reverification-request', { params: { identity_id: id }, signal })
          .catch((error) => {
            if (error instanceof ConsoleApiError && error.status === 404) return null;
            throw error;
          }),
      ]),
    onComplete: ([, open]) => {
      this.open = open;
    },
  });

  async #start(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const reason = String(data.get('reason') ?? '').trim();
    if (!reason) {
      this.formError = new Error(this.t('fieldRequired'));
      return;
    }
    this.busy = true;
    this.formError = null;
    try {
      this.open = await this.api.post('/v1/identities/{identity_id}/reverification-requests', {
        params: { identity_id: this.#params.id },
        // The selects offer exactly the server's values (REVERIFICATION_REASON_CODES, full | biometric).
        body: {
          reason,
          reason_code: String(data.get('reason_code')) as ReverificationBody['reason_code'],
          mode: String(data.get('mode')) as ReverificationBody['mode'],
        },
        idempotencyKey: actionKey(),
      });
      void this.focusAfterRender('#reverification');
    } catch (error) {
      this.formError =
        error instanceof ConsoleApiError && error.code === 'reverification_already_pending'
          ? new Error(this.t('reverifyPending'))
          : error;
    } finally {
      this.busy = false;
    }
  }

  #facts(rows: [MessageKey, string | null | undefined][]) {
    return html`<dl class="facts">
      ${rows
        .filter(([, value]) => value !== undefined)
        .map(([label, value]) => html`<dt>${this.t(label)}</dt><dd>${value ?? this.t('none')}</dd>`)}
    </dl>`;
  }

  #renderReverification(identity: Identity) {
    const t = this.t;
    const open = this.open;
    if (open) {
      return html`<section aria-labelledby="reverification">
        <h2 id="reverification" tabindex="-1">${t('reverifyTitle')}</h2>
        <p>${badge(t, 'status_', open.status)} ${open.reason}
          · <a class="mono" href=${consolePath(['sessions', open.session_id])}>${open.session_id}</a></p>
        ${open.verify_url ? html`<p>${t('reverifyCreated')}</p>${copyField(t('reverifyTitle'), open.verify_url)}` : nothing}
      </section>`;
    }
    if (!this.can('reverifications:create')) return nothing;
    return html`<section aria-labelledby="reverification">
      <h2 id="reverification" tabindex="-1">${t('reverifyTitle')}</h2>
      <form @submit=${this.#start}>
        <div class="form-grid">
          <div class="field">
            <label for="reason">${t('reverifyReason')}</label>
            <input id="reason" name="reason" required maxlength="500" />
          </div>
          <div class="field">
            <label for="reason_code">${t('reverifyReasonCode')}</label>
            <select id="reason_code" name="reason_code">
              ${REVERIFICATION_REASON_CODES.map(
                (code) =>
                  html`<option value=${code} ?selected=${code === 'periodic_review'}>${codeLabel(t, 'reverifyReason_', code)}</option>`,
              )}
            </select>
          </div>
        </div>
        <fieldset>
          <legend>${t('reverifyMode')}</legend>
          ${(['full', 'biometric'] as const).map(
            (mode) => html`<div class="check">
              <input type="radio" id=${`mode-${mode}`} name="mode" value=${mode} ?checked=${mode === 'full'}
                ?disabled=${mode === 'biometric' && !identity.biometric_reference} />
              <label for=${`mode-${mode}`}>${t(`mode_${mode}`)}</label>
            </div>`,
          )}
        </fieldset>
        ${this.renderError(this.formError)}
        <div class="actions"><button type="submit" data-write ?disabled=${this.busy}>${t('reverifyStart')}</button></div>
      </form>
    </section>`;
  }

  override render() {
    return html`${this.heading(this.t('identityTitle'), html`<code>${this.params['id']}</code>`)}
      ${this.renderTask(this.#identity)}
      ${this.#identity.render({ complete: ([identity]) => this.#renderIdentity(identity) })}`;
  }

  #renderIdentity(identity: Identity) {
    const t = this.t;
    const a = identity.attributes;
    return html`${
      a
        ? html`${identity.personal_data_masked ? html`<p class="notice">${t('maskedNotice')}</p>` : nothing}
            <dl class="facts">
              <dt>${t('status')}</dt>
              <dd>${badge(t, 'identityStatus_', identity.status)}</dd>
              <dt>${t('colFlowTier')}</dt>
              <dd>${codeLabel(t, 'flow_', identity.flow)} / ${identity.tier}</dd>
              <dt>${t('colReference')}</dt>
              <dd>${identity.external_user_reference ?? t('none')}</dd>
              <dt>${t('colVerified')}</dt>
              <dd>${this.date(identity.verified_at)}</dd>
              <dt>${t('latestSession')}</dt>
              <dd><a class="mono" href=${consolePath(['sessions', identity.latest_session_id])}>${identity.latest_session_id}</a></dd>
              <dt>${t('biometricEnrolled')}</dt>
              <dd>${t(identity.biometric_reference ? 'yes' : 'no')}</dd>
            </dl>
            <h2>${t('personSection')}</h2>
            ${this.#facts([
              ['firstName', a.first_name],
              ['lastName', a.last_name],
              ['dateOfBirth', a.date_of_birth],
              ['nationality', a.nationality],
              ['address', a.address],
            ])}
            <h2>${t('documentSection')}</h2>
            ${this.#facts([
              ['documentType', a.document.type],
              ['issuingCountry', a.document.issuing_country],
              ['documentNumber', a.document.number],
              ['expiryDate', a.document.expiry_date],
            ])}
            ${
              identity.business
                ? html`<h2>${t('businessSection')}</h2>
                  ${this.#facts([
                    ['legalName', identity.business.legal_name],
                    ['registrationNumber', identity.business.registration_number],
                    ['jurisdiction', identity.business.jurisdiction],
                  ])}`
                : nothing
            }
            ${this.#renderReverification(identity)}`
        : nothing
    }`;
  }
}

if (!customElements.get('idv-identity-detail-screen')) {
  customElements.define('idv-identity-detail-screen', IdentityDetailScreen);
}
