import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConsoleApiError } from '../api/console-api-error.ts';
import type { Capability, ConsoleApi, Schemas } from '../api/console-api.ts';
import { TokenStore } from '../auth/token-store.ts';
import type { MessageKey } from '../i18n/en.ts';

type Me = Schemas['Me'];

/**
 * The staff session: the token (memory and sessionStorage, auth/token-store.ts), who it belongs to, and
 * the timer that ends the session when the token expires, even in an idle tab that sends no request.
 * The shell decides where each change leads (the login, the next page); this controller only keeps the
 * session and re-renders the host when it changes.
 *
 * @example
 *   readonly #auth = new AuthController(this, () => this.#sessionEnded());
 *   await this.#auth.restore(api); // a reload: the stored token's user, if it still works
 */
export class AuthController implements ReactiveController {
  readonly tokens = new TokenStore();
  /** The signed-in user; null when signed out, and while the token may only enrol a second factor. */
  me: Me | null = null;
  /** The token may only enrol a second factor (the tenant requires one): the security page is its one page. */
  enrolmentOnly = false;
  /** Why the last session ended, for the login page to say. */
  notice: MessageKey | null = null;
  readonly #host: ReactiveControllerHost;
  readonly #onExpired: () => void;
  #expiryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost, onExpired: () => void) {
    this.#host = host;
    this.#onExpired = onExpired;
    host.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    clearTimeout(this.#expiryTimer);
  }

  /** Whether the user holds `capability` (null: anyone signed in); the server enforces it regardless. */
  allows(capability: Capability | null): boolean {
    return capability === null || (this.me?.capabilities.includes(capability) ?? false);
  }

  /** After a reload: the stored token's user, when the token still works. */
  async restore(api: ConsoleApi): Promise<void> {
    if (!this.tokens.token) return;
    try {
      this.#signedIn(await api.me());
    } catch (error) {
      // 401 already cleared the token (the API client's onUnauthorized); any other failure leaves the user
      // at the login, except a token that may only enrol a second factor (a reload of the security page).
      this.me = null;
      this.enrolmentOnly = (error as Partial<ConsoleApiError>).code === 'second_factor_required';
      this.#host.requestUpdate();
    }
  }

  /** A login succeeded: keeps its token and, unless it may only enrol a second factor, reads the user. */
  async logIn(api: ConsoleApi, token: string, expiresIn: number, enrolmentOnly: boolean): Promise<void> {
    this.tokens.set(token, expiresIn);
    this.notice = null;
    this.enrolmentOnly = enrolmentOnly;
    this.me = null;
    if (enrolmentOnly) {
      // Even /v1/me refuses this token: there is no user to read yet.
      this.#watchExpiry();
      this.#host.requestUpdate();
      return;
    }
    this.#signedIn(await api.me());
  }

  /** The server exchanged the token for a new one of the same session (a second factor was enrolled). */
  renew(token: string, expiresIn: number): void {
    this.tokens.set(token, expiresIn);
    this.#watchExpiry();
  }

  /** Logs out on the server (when the token still works) and here. */
  async logOut(api: ConsoleApi): Promise<void> {
    try {
      await api.logout();
    } catch {
      // The token may already be dead; the user is logged out locally either way.
    }
    this.#forget();
  }

  /**
   * The token expired or was revoked (any 401, or the timer): forgets the session and notes why.
   * False when there was no session to end.
   */
  end(): boolean {
    if (!this.me && !this.tokens.token) return false;
    this.#forget();
    this.notice = 'sessionEnded';
    return true;
  }

  #signedIn(me: Me): void {
    this.me = me;
    this.#watchExpiry();
    this.#host.requestUpdate();
  }

  #forget(): void {
    this.tokens.clear();
    clearTimeout(this.#expiryTimer);
    this.me = null;
    this.enrolmentOnly = false;
    this.#host.requestUpdate();
  }

  #watchExpiry(): void {
    clearTimeout(this.#expiryTimer);
    const remaining = this.tokens.remainingMs;
    // setTimeout holds at most ~24.8 days; tokens live an hour by default.
    if (remaining > 0 && remaining < 2 ** 31 - 1) {
      this.#expiryTimer = setTimeout(this.#onExpired, remaining);
    }
  }
}
