import { html, nothing, type PropertyDeclarations } from 'lit';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { Schemas } from '../api/console-api.ts';
import { ConsoleScreen, LoggedInEvent } from '../ui/console-screen.ts';
import './second-factor-step.ts';

type SecondFactorChallenge = Schemas['SecondFactorChallenge'];

/** A tenant the typed e-mail and password open an account in (the answer's `tenants`). */
export interface TenantChoice {
  tenant_id: string;
  name: string;
}

/**
 * The tenants to choose from when the login answered 400 `missing_parameter` on `tenant_id`: the e-mail
 * and password open accounts in several tenants. The server says so only after the password is proved.
 */
function tenantChoicesOf(error: unknown): TenantChoice[] | null {
  if (!(error instanceof ConsoleApiError) || error.code !== 'missing_parameter') return null;
  if (error.problem.param !== 'tenant_id' || !Array.isArray(error.problem['tenants'])) return null;
  const tenants = (error.problem['tenants'] as unknown[]).filter(
    (tenant): tenant is TenantChoice =>
      typeof tenant === 'object' &&
      tenant !== null &&
      typeof (tenant as TenantChoice).tenant_id === 'string' &&
      typeof (tenant as TenantChoice).name === 'string',
  );
  return tenants.length > 0 ? tenants : null;
}

/**
 * `/console/login`: e-mail and password → `POST /v1/console/login`. Success hands the token to the shell
 * (LoggedInEvent), which keeps it and opens the page the user came from or their `default_path`.
 *
 * An e-mail address may have an account in several tenants, each with its own password, and the password
 * picks the account. When the same password opens several, the server (having proved it) names them and
 * the screen asks which tenant to log in to; the choice sends the login again with `tenant_id`. Until
 * then nothing on this screen depends on which tenants the address belongs to: a wrong password is the
 * same "incorrect" whatever they are.
 */
export class LoginScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    busy: { state: true },
    failure: { state: true },
    challenge: { state: true },
    tenants: { state: true },
  };

  declare busy: boolean;
  declare failure: string | null;
  /** The password was right and the user has a second factor: the second step is shown instead. */
  declare challenge: SecondFactorChallenge | null;
  /** The password was right for accounts in several tenants: the choice is shown instead of the form. */
  declare tenants: TenantChoice[] | null;
  /** The proved e-mail and password, held only while the tenant choice is shown. */
  #credentials: { email: string; password: string } | null = null;

  constructor() {
    super();
    this.busy = false;
    this.failure = null;
    this.challenge = null;
    this.tenants = null;
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
      await this.#loggedIn(await this.api.login(email, password));
    } catch (error) {
      const tenants = tenantChoicesOf(error);
      if (tenants) {
        this.#credentials = { email, password };
        this.tenants = tenants;
        await this.focusHeading();
        return;
      }
      this.failure = this.#failureText(error);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#password')?.select();
    } finally {
      this.busy = false;
    }
  }

  /** The login into the chosen tenant, with the e-mail and password already proved. */
  async #choose(tenantId: string): Promise<void> {
    const credentials = this.#credentials;
    if (!credentials || this.busy) return;
    this.busy = true;
    this.failure = null;
    try {
      await this.#loggedIn(await this.api.login(credentials.email, credentials.password, tenantId));
      this.#credentials = null;
      this.tenants = null;
    } catch (error) {
      this.failure = this.#failureText(error);
      await this.focusAfterRender('#login-error');
    } finally {
      this.busy = false;
    }
  }

  /** Tokens for the shell, or the second step when the user has a second factor. */
  async #loggedIn(login: Awaited<ReturnType<typeof this.api.login>>): Promise<void> {
    if ('second_factor_required' in login) {
      this.challenge = login;
      await this.updateComplete;
      await this.renderRoot.querySelector<ConsoleScreen>('idv-second-factor-step')?.focusHeading();
      return;
    }
    const enrolmentOnly = login.second_factor_enrolment_required === true;
    this.dispatchEvent(new LoggedInEvent(login.access_token, login.expires_in, enrolmentOnly));
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
    this.tenants = null;
    this.#credentials = null;
    this.failure = null;
    await this.focusAfterRender('#password');
  }

  #renderTenantChoice(tenants: TenantChoice[]) {
    const t = this.t;
    return html`<h1 tabindex="-1">${t('tenantChoiceTitle')}</h1>
      <p class="muted" id="tenant-choice-intro">${t('tenantChoiceIntro')}</p>
      <ul class="plain row-actions" aria-labelledby="tenant-choice-intro">
        ${tenants.map(
          (tenant) => html`<li>
            <button type="button" data-tenant-id=${tenant.tenant_id} ?disabled=${this.busy}
              aria-describedby=${this.failure ? 'login-error' : nothing}
              @click=${() => void this.#choose(tenant.tenant_id)}>${tenant.name}</button>
          </li>`,
        )}
      </ul>
      ${this.failure ? html`<p id="login-error" class="error" role="alert" tabindex="-1">${this.failure}</p>` : nothing}
      <div class="actions">
        <button type="button" class="secondary" id="start-over" @click=${() => void this.#startOver()}>
          ${t('tenantChoiceBack')}
        </button>
      </div>`;
  }

  override render() {
    const t = this.t;
    if (this.challenge) {
      return html`<idv-second-factor-step .ctx=${this.ctx} .challenge=${this.challenge}
        @idv-second-factor-cancel=${() => void this.#startOver()}></idv-second-factor-step>`;
    }
    if (this.tenants) return this.#renderTenantChoice(this.tenants);
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
