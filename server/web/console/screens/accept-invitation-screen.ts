import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ConsoleApiError } from '../api/console-api-error.ts';
import { BASE } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';

/**
 * The server's minimum (server/features/users/password-policy.ts, long passphrases rather than composition
 * rules), in code points as it counts; the server also refuses common and breached passwords and says why.
 */
const MIN_PASSWORD_LENGTH = 15;

/**
 * `/console/accept-invitation#inv_…`: the invited colleague chooses a password
 * (`POST /v1/console/accept-invitation`). The token travels in the fragment, which browsers never send to
 * a server, and is dropped from the address bar as soon as it is read.
 */
export class AcceptInvitationScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    busy: { state: true },
    failure: { state: true },
    done: { state: true },
    token: { state: true },
  };

  declare busy: boolean;
  declare failure: string | null;
  declare done: boolean;
  declare token: string;

  constructor() {
    super();
    this.busy = false;
    this.failure = null;
    this.done = false;
    this.token = '';
  }

  /** Takes the token from the fragment, then drops it from the address bar. */
  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (!changed.has('fragment') || !this.fragment) return;
    this.token = decodeURIComponent(this.fragment);
    this.navigate(`${BASE}/accept-invitation`, true);
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const password = String(data.get('password') ?? '');
    const repeat = String(data.get('repeat') ?? '');
    if ([...password].length < MIN_PASSWORD_LENGTH) {
      this.failure = this.t('passwordTooShort');
      return;
    }
    if (password !== repeat) {
      this.failure = this.t('passwordMismatch');
      return;
    }
    this.busy = true;
    this.failure = null;
    try {
      await this.api.post('/v1/console/accept-invitation', {
        body: { invitation_token: this.token, password },
      });
      this.done = true;
      this.token = '';
    } catch (error) {
      this.failure =
        error instanceof ConsoleApiError && error.code === 'resource_missing'
          ? this.t('invitationInvalid')
          : error instanceof ConsoleApiError && error.code === 'invitation_expired'
            ? this.t('invitationExpired')
            : this.errorText(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const t = this.t;
    const login = html`<p><a href=${`${BASE}/login`}>${t('goToLogin')}</a></p>`;
    if (this.done) {
      return html`<h1 tabindex="-1">${t('acceptTitle')}</h1>
        <p role="status">${t('acceptDone')}</p>
        ${login}`;
    }
    if (!this.token) {
      return html`<h1 tabindex="-1">${t('acceptTitle')}</h1>
        <p class="error">${t('invitationMissing')}</p>
        ${login}`;
    }
    const describedBy = this.failure ? 'accept-error' : nothing;
    return html`<h1 tabindex="-1">${t('acceptTitle')}</h1>
      <p class="muted" id="accept-hint">${t('acceptIntro')}</p>
      <form @submit=${this.#submit} novalidate>
        <div class="field">
          <label for="password">${t('newPassword')}</label>
          <input id="password" name="password" type="password" autocomplete="new-password" required
            minlength=${MIN_PASSWORD_LENGTH} aria-describedby=${this.failure ? 'accept-hint accept-error' : 'accept-hint'} />
        </div>
        <div class="field">
          <label for="repeat">${t('repeatPassword')}</label>
          <input id="repeat" name="repeat" type="password" autocomplete="new-password" required
            aria-describedby=${describedBy} />
        </div>
        ${this.failure ? html`<p id="accept-error" class="error" role="alert">${this.failure}</p>` : nothing}
        <div class="actions">
          <button type="submit" ?disabled=${this.busy}>${t('acceptSubmit')}</button>
        </div>
      </form>
      ${login}`;
  }
}

if (!customElements.get('idv-accept-invitation-screen')) {
  customElements.define('idv-accept-invitation-screen', AcceptInvitationScreen);
}
