import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { Schemas, SecondFactorAnswer } from '../api/console-api.ts';
import { assertPasskey, isPasskeyCancelled, passkeysSupported } from '../auth/passkeys.ts';
import { ConsoleScreen, LoggedInEvent } from '../ui/console-screen.ts';

type SecondFactorChallenge = Schemas['SecondFactorChallenge'];

/** What the step asks for: a code from the app, a recovery code, or (no code form) a passkey. */
type StepMethod = 'totp' | 'recovery_code' | 'passkey';

/** Asks the login screen to start over at the password (the challenge is over or the user chose to). */
export class SecondFactorCancelEvent extends Event {
  constructor() {
    super('idv-second-factor-cancel', { bubbles: true, composed: true });
  }
}

/**
 * The login's second step, shown by the login screen when the password step answered
 * `second_factor_required`: a code from the authenticator app, a recovery code, or a passkey. Success
 * hands the token to the shell (LoggedInEvent) like a plain login.
 */
export class SecondFactorStep extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    challenge: { attribute: false },
    method: { state: true },
    busy: { state: true },
    failure: { state: true },
    expired: { state: true },
  };

  declare challenge: SecondFactorChallenge;
  declare method: StepMethod;
  declare busy: boolean;
  declare failure: string | null;
  declare expired: boolean;

  constructor() {
    super();
    this.method = 'totp';
    this.busy = false;
    this.failure = null;
    this.expired = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('challenge') && this.challenge) {
      this.method = this.challenge.methods.includes('totp')
        ? 'totp'
        : this.#passkeyOffered
          ? 'passkey'
          : 'recovery_code';
    }
  }

  get #passkeyOffered(): boolean {
    return (
      this.challenge.methods.includes('passkey') && !!this.challenge.passkey_options && passkeysSupported()
    );
  }

  async #complete(answer: SecondFactorAnswer, focusAfterFailure: string | null): Promise<void> {
    this.busy = true;
    this.failure = null;
    try {
      const login = await this.api.loginSecondFactor(this.challenge.challenge_token, answer);
      this.dispatchEvent(new LoggedInEvent(login.access_token, login.expires_in));
    } catch (error) {
      this.failure = this.#failureText(error);
      await this.updateComplete;
      if (focusAfterFailure) this.renderRoot.querySelector<HTMLInputElement>(focusAfterFailure)?.select();
    } finally {
      this.busy = false;
    }
  }

  #submitCode(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').trim();
    if (!typed) {
      this.failure = this.t('fieldRequired');
      return Promise.resolve();
    }
    const answer: SecondFactorAnswer =
      this.method === 'totp' ? { totp_code: typed.replace(/\s/g, '') } : { recovery_code: typed };
    return this.#complete(answer, '#code');
  }

  async #usePasskey(): Promise<void> {
    const options = this.challenge.passkey_options;
    if (!options) return;
    this.failure = null;
    let passkey: Record<string, unknown>;
    try {
      passkey = await assertPasskey(options);
    } catch (error) {
      this.failure = isPasskeyCancelled(error) ? this.t('passkeyCancelled') : this.errorText(error);
      return;
    }
    await this.#complete({ passkey }, null);
  }

  async #switch(method: StepMethod): Promise<void> {
    this.method = method;
    this.failure = null;
    await this.focusAfterRender('#code');
  }

  #failureText(error: unknown): string {
    if (!(error instanceof ConsoleApiError)) return this.errorText(error);
    switch (error.code) {
      case 'invalid_second_factor':
        return this.t('secondFactorWrong');
      case 'login_challenge_expired':
        this.expired = true;
        return this.t('secondFactorExpired');
      case 'too_many_attempts':
        return this.t('secondFactorLocked');
      case 'user_disabled':
        return this.t('userDisabled');
      case 'tenant_suspended':
        return this.t('tenantSuspended');
      default:
        return this.errorText(error);
    }
  }

  override render() {
    const t = this.t;
    const totp = this.method === 'totp';
    const canTotp = this.challenge.methods.includes('totp');
    const canRecovery = this.challenge.methods.includes('recovery_code');
    const codeForm = this.method !== 'passkey';
    return html`<h1 tabindex="-1">${t('secondFactorTitle')}</h1>
      <p class="muted">${codeForm ? (totp ? t('secondFactorIntro') : t('secondFactorRecoveryIntro')) : t('secondFactorPasskeyIntro')}</p>
      ${
        this.failure
          ? html`<p id="second-factor-error" class="error" role="alert">${this.failure}</p>`
          : nothing
      }
      ${
        this.expired
          ? nothing
          : html`${
              this.#passkeyOffered
                ? html`<div class="actions">
                    <button type="button" id="use-passkey" ?disabled=${this.busy} @click=${() => void this.#usePasskey()}>
                      ${t('secondFactorUsePasskey')}
                    </button>
                  </div>`
                : nothing
            }
            ${
              codeForm
                ? html`<form @submit=${this.#submitCode} novalidate>
                    <div class="field">
                      <label for="code">${totp ? t('totpCode') : t('recoveryCodeLabel')}</label>
                      <input id="code" name="code" autocomplete=${totp ? 'one-time-code' : 'off'}
                        inputmode=${totp ? 'numeric' : 'text'} maxlength=${totp ? 6 : 16} required
                        aria-describedby=${this.failure ? 'second-factor-error' : nothing} />
                    </div>
                    <div class="actions">
                      <button type="submit" ?disabled=${this.busy}>${t('secondFactorSubmit')}</button>
                    </div>
                  </form>`
                : nothing
            }
            <div class="row-actions">
              ${
                canRecovery && this.method !== 'recovery_code'
                  ? html`<button type="button" class="secondary small" @click=${() => void this.#switch('recovery_code')}>
                      ${t('secondFactorUseRecovery')}</button>`
                  : nothing
              }
              ${
                canTotp && !totp
                  ? html`<button type="button" class="secondary small" @click=${() => void this.#switch('totp')}>
                      ${t('secondFactorUseTotp')}</button>`
                  : nothing
              }
            </div>`
      }
      <div class="actions">
        <button type="button" class="secondary" id="start-over" @click=${() => this.dispatchEvent(new SecondFactorCancelEvent())}>
          ${t('secondFactorBack')}
        </button>
      </div>`;
  }
}

if (!customElements.get('idv-second-factor-step'))
  customElements.define('idv-second-factor-step', SecondFactorStep);
