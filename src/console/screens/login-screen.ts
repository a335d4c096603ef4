import { html, nothing, type PropertyDeclarations } from 'lit';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { SecondFactorChallenge } from '../api/console-types.ts';
import { ConsoleScreen, LoggedInEvent } from '../ui/console-screen.ts';
import './second-factor-step.ts';

/**
 * `/console/login`: e-mail and password → `POST /v1/console/login`. Success hands the token to the shell
 * (LoggedInEvent), which keeps it and opens the page the user came from or their `default_path`.
 */
export class LoginScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    busy: { state: true },
    failure: { state: true },
    challenge: { state: true },
  };

  declare busy: boolean;
  declare failure: string | null;
  /** The password was right and the user has a second factor: the second step is shown instead. */
  declare challenge: SecondFactorChallenge | null;

  constructor() {
    super();
    this.busy = false;
    this.failure = null;
    this.challenge = null;
  }

  protected override loadKey(): string {
    return 'static';
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const email = String(data.get('email') ?? '').trim();
    const password = String(data.get('password') ?? '');
    if (!email || !password) {
      this.failure = this.t('fieldRequired');
      return;
    }
    this.busy = true;
    this.failure = null;
    try {
      const login = await this.api.login(email, password);
      if ('second_factor_required' in login) {
        this.challenge = login;
        await this.updateComplete;
        await this.renderRoot.querySelector<ConsoleScreen>('idv-second-factor-step')?.focusHeading();
        return;
      }
      const enrolmentOnly = login.second_factor_enrolment_required === true;
      this.dispatchEvent(new LoggedInEvent(login.access_token, login.expires_in, enrolmentOnly));
    } catch (error) {
      this.failure = this.#failureText(error);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#password')?.select();
    } finally {
      this.busy = false;
    }
  }

  #failureText(error: unknown): string {
    if (!(error instanceof ConsoleApiError)) return this.errorText(error);
    switch (error.code) {
      case 'invalid_credentials':
        return this.t('loginFailed');
      case 'too_many_attempts':
        return this.t('loginLocked');
      case 'user_disabled':
        return this.t('userDisabled');
      case 'tenant_suspended':
        return this.t('tenantSuspended');
      default:
        return this.errorText(error);
    }
  }

  async #startOver(): Promise<void> {
    this.challenge = null;
    await this.focusAfterRender('#password');
  }

  override render() {
    const t = this.t;
    if (this.challenge) {
      return html`<idv-second-factor-step .ctx=${this.ctx} .challenge=${this.challenge}
        @idv-second-factor-cancel=${() => void this.#startOver()}></idv-second-factor-step>`;
    }
    return html`<h1 tabindex="-1">${t('loginTitle')}</h1>
      <p class="muted">${t('loginIntro')}</p>
      <form @submit=${this.#submit} novalidate>
        <div class="field">
          <label for="email">${t('email')}</label>
          <input id="email" name="email" type="email" autocomplete="username" required
            aria-describedby=${this.failure ? 'login-error' : nothing} />
        </div>
        <div class="field">
          <label for="password">${t('password')}</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required
            aria-describedby=${this.failure ? 'login-error' : nothing} />
        </div>
        ${this.failure ? html`<p id="login-error" class="error" role="alert">${this.failure}</p>` : nothing}
        <div class="actions">
          <button type="submit" ?disabled=${this.busy}>${t('loginSubmit')}</button>
        </div>
      </form>`;
  }
}

if (!customElements.get('idv-login-screen')) customElements.define('idv-login-screen', LoginScreen);
