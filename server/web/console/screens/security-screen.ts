import { encode } from 'uqr';
import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations, svg } from 'lit';
import { qrPath } from '../../../../src/components/qr-path.ts';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { Schemas } from '../api/console-api.ts';
import { createPasskey, isPasskeyCancelled, passkeysSupported } from '../auth/passkeys.ts';
import { ConsoleScreen, LoggedInEvent, TokenRenewedEvent } from '../ui/console-screen.ts';
import { copyField } from '../ui/widgets.ts';
import '../ui/copy-field.ts';
import { securityStyles } from './security-screen-styles.ts';

/**
 * What completing an enrolment (a code or a passkey) returns that the screen reads. `login` is written out:
 * the document gives it as `allOf` of the login and `object | null`, which the generated type cannot make
 * null (the server's schema wants a fix: a nullable `$ref` with a description).
 */
type EnrolmentResult = Pick<Schemas['TotpEnrolled'], 'recovery_codes' | 'login'>;
type LoginResponse = Schemas['ConsoleLoginResponse'];
type SecondFactors = Schemas['SecondFactors'];
type TotpEnrolment = Schemas['TotpEnrolment'];

/** Recovery codes just issued, shown once, and the full login that waits behind them (if any). */
interface ShownCodes {
  codes: string[];
  login: LoginResponse | null;
}

/**
 * `/console/security`: the signed-in user's second factors. An authenticator app (TOTP: the server's
 * secret shown as a QR code and as a key to type, confirmed with a first code), passkeys (WebAuthn,
 * named, removable) and recovery codes (shown once when issued). A member whose tenant requires a second
 * factor and who has none arrives here with a token that opens nothing else; enrolling one exchanges it
 * for a full login, which starts once the recovery codes have been saved.
 */
export class SecurityScreen extends ConsoleScreen {
  static override styles = [...ConsoleScreen.styles, securityStyles];

  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    totp: { state: true },
    shown: { state: true },
    busy: { state: true },
    message: { state: true },
    actionError: { state: true },
  };

  /** A TOTP enrolment waiting for its first code. */
  declare totp: TotpEnrolment | null;
  declare shown: ShownCodes | null;
  declare busy: boolean;
  declare message: string;
  declare actionError: unknown;

  constructor() {
    super();
    this.totp = null;
    this.shown = null;
    this.busy = false;
    this.message = '';
    this.actionError = null;
  }

  protected override get environmentScoped(): boolean {
    return false;
  }

  /** The user's own factors: the same in either environment, loaded once and again after each change. */
  readonly #factors = new Task(this, {
    args: () => [],
    task: async (_, { signal }) => {
      try {
        return await this.api.get('/v1/me/second-factors', { signal });
      } catch (error) {
        // No token at all (a visitor who typed the address): the login, which returns here afterwards.
        if (error instanceof ConsoleApiError && error.isUnauthenticated)
          this.navigate('/console/login', true);
        throw error;
      }
    },
  });

  /** Only enrolment is open to this token (no `me`): removing factors and replacing codes are not. */
  get #restricted(): boolean {
    return this.ctx.me === null;
  }

  async #act(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.message = '';
    this.actionError = null;
    try {
      await work();
    } catch (error) {
      this.actionError = error;
      await this.focusAfterRender('#action-error');
    } finally {
      this.busy = false;
    }
  }

  /**
   * After an enrolment: the new recovery codes to save, or straight on to the full login. A signed-in
   * user's password-only token was exchanged for one carrying the factor: the shell takes it at once.
   */
  async #enrolled(result: EnrolmentResult, message: string): Promise<void> {
    this.message = message;
    let login = result.login;
    if (login && !this.#restricted) {
      this.dispatchEvent(new TokenRenewedEvent(login.access_token, login.expires_in));
      login = null;
    }
    if (result.recovery_codes) {
      this.shown = { codes: result.recovery_codes, login };
      await this.focusAfterRender('#codes-heading');
    } else if (login) {
      this.#continue(login);
      return;
    }
    await this.#factors.run();
  }

  #continue(login: LoginResponse): void {
    this.dispatchEvent(new LoggedInEvent(login.access_token, login.expires_in));
  }

  #startTotp(): Promise<void> {
    return this.#act(async () => {
      this.totp = await this.api.post('/v1/me/second-factors/totp');
      await this.focusAfterRender('#totp-code');
    });
  }

  #confirmTotp(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const totp = this.totp;
    if (!totp) return Promise.resolve();
    const code = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').replace(
      /\s/g,
      '',
    );
    return this.#act(async () => {
      const result = await this.api.post('/v1/me/second-factors/totp/confirm', {
        body: { enrolment_id: totp.enrolment_id, code },
      });
      this.totp = null;
      await this.#enrolled(result, this.t('totpEnrolled'));
    });
  }

  #removeTotp(): Promise<void> {
    return this.#act(async () => {
      await this.api.delete('/v1/me/second-factors/totp');
      this.message = this.t('totpRemoved');
      await this.#factors.run();
    });
  }

  #addPasskey(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim() || this.t('passkeyDefaultName');
    return this.#act(async () => {
      const registration = await this.api.post('/v1/me/second-factors/passkeys/options');
      let response: Record<string, unknown>;
      try {
        response = await createPasskey(registration.options);
      } catch (error) {
        throw isPasskeyCancelled(error) ? new Error(this.t('passkeyCancelled')) : error;
      }
      const result = await this.api.post('/v1/me/second-factors/passkeys', {
        body: { registration_id: registration.registration_id, name, response },
      });
      form.reset();
      await this.#enrolled(result, this.t('passkeyAdded', { name }));
    });
  }

  #removePasskey(id: string): Promise<void> {
    return this.#act(async () => {
      await this.api.delete('/v1/me/second-factors/passkeys/{id}', { params: { id } });
      this.message = this.t('passkeyRemoved');
      await this.#factors.run();
    });
  }

  #replaceCodes(): Promise<void> {
    return this.#act(async () => {
      const result = await this.api.post('/v1/me/second-factors/recovery-codes');
      this.shown = { codes: result.recovery_codes, login: null };
      await this.focusAfterRender('#codes-heading');
      await this.#factors.run();
    });
  }

  #codesSaved(): void {
    const login = this.shown?.login ?? null;
    this.shown = null;
    if (login) this.#continue(login);
    else void this.focusHeading();
  }

  #actionErrorText(error: unknown): string {
    if (error instanceof ConsoleApiError) {
      if (error.code === 'invalid_second_factor') return this.t('secondFactorWrong');
      if (error.code === 'last_second_factor') return this.t('lastSecondFactor');
      if (error.code === 'login_challenge_expired') return this.t('enrolmentExpired');
      if (error.code === 'too_many_attempts') return this.t('secondFactorLocked');
    }
    return this.errorText(error);
  }

  override render() {
    const t = this.t;
    const factors = this.#factors.value;
    return html`${this.heading(t('securityTitle'))}
      <p class="muted">${t('securityIntro')}</p>
      ${this.#restricted ? html`<p class="notice" role="alert">${t('securityRequired')}</p>` : nothing}
      ${this.renderTask(this.#factors)}
      <p role="status" class="muted">${this.message}</p>
      ${
        this.actionError
          ? html`<div class="notice bad" id="action-error" tabindex="-1" role="alert">
              <p class="error">${this.#actionErrorText(this.actionError)}</p>
            </div>`
          : nothing
      }
      ${this.shown ? this.#renderCodes(this.shown) : nothing}
      ${factors ? html`${this.#renderTotp(factors)} ${this.#renderPasskeys(factors)} ${this.#renderRecovery(factors)}` : nothing}`;
  }

  #renderCodes(shown: ShownCodes) {
    const t = this.t;
    return html`<section class="notice" aria-labelledby="codes-heading">
      <h2 id="codes-heading" tabindex="-1">${t('recoveryShownTitle')}</h2>
      <p>${t('recoveryShownBody')}</p>
      <ol class="codes" id="recovery-codes">
        ${shown.codes.map((code) => html`<li>${code}</li>`)}
      </ol>
      ${copyField(t('recoveryTitle'), shown.codes.join('\n'))}
      <div class="actions">
        <button type="button" id="codes-saved" @click=${this.#codesSaved}>${t('recoverySaved')}</button>
      </div>
    </section>`;
  }

  #renderTotp(factors: SecondFactors) {
    const t = this.t;
    const totp = this.totp;
    const modules = totp ? encode(totp.otpauth_uri, { ecc: 'M', border: 0 }).data : null;
    return html`<section aria-labelledby="totp-heading">
      <h2 id="totp-heading">${t('totpTitle')}</h2>
      <p>${factors.totp ? t('totpOn') : t('totpOff')}</p>
      ${
        totp && modules
          ? html`<p>${t('totpScan')}</p>
              <svg class="qr" viewBox="0 0 ${modules.length} ${modules.length}" role="img" aria-label=${t('totpQr')}>
                ${svg`<path fill="currentColor" d=${qrPath(modules)}></path>`}
              </svg>
              ${copyField(t('totpSecret'), totp.secret)}
              <form @submit=${this.#confirmTotp} novalidate>
                <div class="field">
                  <label for="totp-code">${t('totpCode')}</label>
                  <input id="totp-code" class="code-input" name="code" inputmode="numeric" autocomplete="one-time-code"
                    pattern="[0-9]{6}" maxlength="6" required aria-describedby="totp-code-hint" />
                  <p id="totp-code-hint" class="muted">${t('totpCodeHint')}</p>
                </div>
                <div class="actions">
                  <button type="submit" ?disabled=${this.busy}>${t('totpConfirm')}</button>
                  <button type="button" class="secondary" @click=${() => {
                    this.totp = null;
                  }}>${t('cancel')}</button>
                </div>
              </form>`
          : html`<div class="row-actions">
              <button type="button" id="totp-start" ?disabled=${this.busy} @click=${() => void this.#startTotp()}>
                ${factors.totp ? t('totpReplace') : t('totpStart')}
              </button>
              ${
                factors.totp && !this.#restricted
                  ? html`<button type="button" class="secondary" ?disabled=${this.busy}
                      @click=${() => void this.#removeTotp()}>${t('totpRemove')}</button>`
                  : nothing
              }
            </div>`
      }
    </section>`;
  }

  #renderPasskeys(factors: SecondFactors) {
    const t = this.t;
    return html`<section aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">${t('passkeysTitle')}</h2>
      ${
        factors.passkeys.length === 0
          ? html`<p>${t('passkeysNone')}</p>`
          : html`<ul class="plain" id="passkey-list">
              ${factors.passkeys.map(
                (passkey) => html`<li class="row-actions">
                  <span><strong>${passkey.name}</strong> ·
                    ${t('passkeyCreated', { time: this.date(passkey.created_at) })} ·
                    ${passkey.last_used_at ? t('passkeyLastUsed', { time: this.date(passkey.last_used_at) }) : t('passkeyNeverUsed')}</span>
                  ${
                    this.#restricted
                      ? nothing
                      : html`<button type="button" class="secondary small" ?disabled=${this.busy}
                          @click=${() => void this.#removePasskey(passkey.passkey_id)}>${t('passkeyRemove', { name: passkey.name })}</button>`
                  }
                </li>`,
              )}
            </ul>`
      }
      ${
        passkeysSupported()
          ? html`<form @submit=${this.#addPasskey} novalidate>
              <div class="field">
                <label for="passkey-name">${t('passkeyName')}</label>
                <input id="passkey-name" name="name" maxlength="64" autocomplete="off"
                  placeholder=${t('passkeyDefaultName')} />
              </div>
              <div class="actions">
                <button type="submit" id="passkey-add" ?disabled=${this.busy}>${t('passkeyAdd')}</button>
              </div>
            </form>`
          : html`<p class="muted">${t('passkeyUnsupported')}</p>`
      }
    </section>`;
  }

  #renderRecovery(factors: SecondFactors) {
    const t = this.t;
    if (!factors.totp && factors.passkeys.length === 0) return nothing;
    return html`<section aria-labelledby="recovery-heading">
      <h2 id="recovery-heading">${t('recoveryTitle')}</h2>
      <p>${t('recoveryRemaining', { count: factors.recovery_codes_remaining })}</p>
      ${
        this.#restricted
          ? nothing
          : html`<button type="button" class="secondary" ?disabled=${this.busy}
              @click=${() => void this.#replaceCodes()}>${t('recoveryRegenerate')}</button>`
      }
    </section>`;
  }
}

if (!customElements.get('idv-security-screen')) customElements.define('idv-security-screen', SecurityScreen);
