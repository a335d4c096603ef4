import { ContextProvider } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { sharedStyles } from '../../../src/components/shared-styles.ts';
import { themeStyles } from '../../../src/components/theme-styles.ts';
import { ConsoleApi } from './api/console-api.ts';
import { ENVIRONMENTS } from './api/lists.ts';
import { apiContext } from './context.ts';
import { AuthController } from './controllers/auth-controller.ts';
import { type ConsoleTheme, PreferencesController, THEMES } from './controllers/preferences-controller.ts';
import { type RouteDecision, RouterController } from './controllers/router-controller.ts';
import type { MessageKey } from './i18n/en.ts';
import { CONSOLE_LOCALES, LOCALE_NAMES } from './i18n/localize.ts';
import { browserHistory, type ConsoleHistory } from './routing/history.ts';
import {
  BASE,
  consolePath,
  matchRoute,
  NOT_FOUND,
  ROUTES,
  type RouteMatch,
  safeReturnPath,
  splitHref,
} from './routing/routes.ts';
import type { LoggedInEvent, ScreenContext, TokenRenewedEvent } from './ui/console-screen.ts';
import { shellStyles } from './console-element-styles.ts';

export type { ConsoleTheme } from './controllers/preferences-controller.ts';

/**
 * `<idv-console>`: the tenant staff's console, a single-page app under `/console/*`. A thin shell: the
 * session (controllers/auth-controller.ts), the route (controllers/router-controller.ts) and the display
 * choices (controllers/preferences-controller.ts) are controllers; the shell decides who may open which
 * page, and renders the current screen (each a lazy chunk) inside a header and a navigation that lists
 * only what the user's capabilities allow. It provides the API client and `t` to every element inside by
 * context (context.ts).
 *
 * @example
 *   <idv-console></idv-console>                      <!-- the app, on the API origin -->
 *   <idv-console .fetchImpl=${stub} .history=${memory}></idv-console>  <!-- tests -->
 */
export class IdvConsoleElement extends LitElement {
  static override styles = [themeStyles, sharedStyles, shellStyles];

  static override properties: PropertyDeclarations = {
    theme: { reflect: true },
    locale: {},
    apiBase: { attribute: 'api-base' },
    fetchImpl: { attribute: false },
    history: { attribute: false },
  };

  declare theme: ConsoleTheme;
  /** Preferred language (BCP 47); else the remembered choice, else the browser's languages. */
  declare locale: string | null;
  /** Origin of `/v1`; the console's own origin by default (the server serves both). */
  declare apiBase: string;
  /** Replaces the global fetch for every API call (tests). */
  declare fetchImpl: typeof fetch | null;
  /** Replaces the browser history (tests). */
  declare history: ConsoleHistory;

  readonly api: ConsoleApi;
  readonly #auth = new AuthController(this, () => this.#sessionEnded());
  readonly #preferences: PreferencesController;
  readonly #router: RouterController;
  #ctx: ScreenContext | null = null;

  constructor() {
    super();
    this.locale = null;
    this.apiBase = '';
    this.fetchImpl = null;
    this.history = browserHistory;
    this.api = new ConsoleApi({
      base: '',
      fetch: (input, init) =>
        (this.fetchImpl ?? globalThis.fetch.bind(globalThis))(this.#apiUrl(input), init),
      token: () => this.#auth.tokens.token,
      environment: () => this.#preferences.environment,
      onUnauthorized: () => this.#sessionEnded(),
    });
    new ContextProvider(this, { context: apiContext, initialValue: this.api });
    this.#preferences = new PreferencesController(
      this,
      () => this.api,
      () => this.#router.retitle(),
    );
    this.#router = new RouterController(this, {
      history: () => this.history,
      decide: (match) => this.#decide(match),
      context: () => this.#context(),
      t: () => this.#preferences.t,
    });
    this.addEventListener('idv-logged-in', (event) => void this.#loggedIn(event as LoggedInEvent));
    this.addEventListener('idv-token-renewed', (event) => {
      const { token, expiresIn } = event as TokenRenewedEvent;
      this.#auth.renew(token, expiresIn);
    });
  }

  #apiUrl(input: RequestInfo | URL): RequestInfo | URL {
    return typeof input === 'string' && this.apiBase ? `${this.apiBase.replace(/\/$/, '')}${input}` : input;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#start();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('locale') && this.hasUpdated) void this.#preferences.loadLocale();
    if (this.#router.screen) this.#router.screen.ctx = this.#context();
  }

  /** Opens a console page: `href` is a path (and query) under /console. */
  navigate(href: string, replace = false): void {
    this.#router.navigate(href, replace);
  }

  // ---- start, login, logout: where each change of session leads -----------------------------------

  async #start(): Promise<void> {
    await this.#preferences.loadLocale();
    await this.#auth.restore(this.api);
    if (this.#auth.me) await this.#preferences.settleEnvironment(this.#auth.me);
    await this.#router.start(this.#auth.enrolmentOnly ? `${BASE}/security` : undefined);
  }

  async #loggedIn(event: LoggedInEvent): Promise<void> {
    await this.#auth.logIn(this.api, event.token, event.expiresIn, event.enrolmentOnly);
    const me = this.#auth.me;
    // A token that may only enrol a second factor reaches nothing else: straight to the security page.
    if (!me) return this.navigate(`${BASE}/security`, true);
    await this.#preferences.settleEnvironment(me);
    const next = safeReturnPath(this.#router.current()?.query.get('next'));
    const nextRoute = next ? matchRoute(splitHref(next).pathname)?.route : null;
    const allowed = nextRoute && nextRoute !== NOT_FOUND && this.#auth.allows(nextRoute.capability);
    this.navigate(allowed && next ? next : me.default_path, true);
  }

  async #logout(): Promise<void> {
    await this.#auth.logOut(this.api);
    this.navigate(`${BASE}/login`);
  }

  /** Any 401 or the token's expiry: back to the login, which then returns to this page. */
  #sessionEnded(): void {
    if (!this.#auth.end()) return;
    const current = this.#router.current();
    const next = current && !current.route.public ? current.href : null;
    this.navigate(consolePath(['login'], { next: next ?? undefined }), true);
  }

  /** Who may open what: the login for the signed out, "no access" for a page beyond the user's role. */
  #decide(match: RouteMatch | null): RouteDecision {
    const me = this.#auth.me;
    if (!match) return { redirect: me ? me.default_path : `${BASE}/login` };
    const enrolling = this.#auth.enrolmentOnly && match.route.name === 'security';
    if (!match.route.public && !me && !enrolling) {
      return { redirect: consolePath(['login'], { next: match.href }) };
    }
    if (match.route.name === 'login' && me) return { redirect: me.default_path };
    return this.#auth.allows(match.route.capability)
      ? { route: match.route, params: match.params }
      : { route: NOT_FOUND, params: { reason: 'forbidden' } };
  }

  /** The screen's context: a new object only when one of its members changed. */
  #context(): ScreenContext {
    const locale = this.#preferences.language;
    const me = this.#auth.me;
    const environment = this.#preferences.environment;
    const last = this.#ctx;
    if (!last || last.locale !== locale || last.me !== me || last.environment !== environment) {
      this.#ctx = { locale, me, environment };
    }
    return this.#ctx as ScreenContext;
  }

  #skipToMain(): void {
    this.renderRoot.querySelector<HTMLElement>('main')?.focus();
  }

  // ---- rendering ----------------------------------------------------------------------------------

  #renderPreferences() {
    const { t, language } = this.#preferences;
    return html`<div class="field">
        <label for="locale">${t('languageLabel')}</label>
        <select id="locale" @change=${(event: Event) => this.#preferences.chooseLocale(chosenValue(event))}>
          ${CONSOLE_LOCALES.map(
            (code) =>
              html`<option value=${code} lang=${code} ?selected=${code === language}>${LOCALE_NAMES[code] ?? code}</option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="theme">${t('themeLabel')}</label>
        <select id="theme" @change=${(event: Event) => this.#preferences.chooseTheme(chosenValue(event))}>
          ${THEMES.map(
            (theme) =>
              html`<option value=${theme} ?selected=${theme === this.theme}>${t(`theme_${theme}` as MessageKey)}</option>`,
          )}
        </select>
      </div>`;
  }

  #renderNav() {
    const t = this.#preferences.t;
    const current = this.#router.route;
    const items = ROUTES.filter((route) => route.nav && this.#auth.allows(route.capability));
    return html`<nav aria-label=${t('navLabel')}>
      <ul>
        ${items.map((route) => {
          const active = current === route || (current?.pattern.startsWith(`${route.pattern}/`) ?? false);
          return html`<li>
            <a href=${`${BASE}/${route.pattern}`} aria-current=${active ? 'page' : nothing}>${t(route.title)}</a>
          </li>`;
        })}
      </ul>
    </nav>`;
  }

  #renderMain() {
    const t = this.#preferences.t;
    const router = this.#router;
    if (!router.started) return html`<p role="status">${t('loading')}</p>`;
    if (router.error) {
      return html`<div role="alert">
        <p class="error">${t('networkError')}</p>
        <button type="button" @click=${() => void router.show()}>${t('retry')}</button>
      </div>`;
    }
    const notice = this.#auth.notice;
    return html`${
      notice && router.route?.name === 'login'
        ? html`<p class="notice" role="alert">${t(notice)}</p>`
        : nothing
    }${router.screen ?? nothing}`;
  }

  override render() {
    const { t, language, dir, environment, waiting } = this.#preferences;
    const me = this.#auth.me;
    const signedIn = me !== null && this.#router.started && !this.#router.route?.public;
    // A button rather than `<a href="#main">`: the target lives in this shadow root, where a fragment link
    // cannot reach it; the button moves focus there itself.
    const skip = html`<button type="button" class="skip" @click=${this.#skipToMain}>${t('skipToContent')}</button>`;
    const announcer = html`<div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      ${this.#router.announcement}
    </div>`;
    if (!signedIn || !me) {
      return html`<div class="public" lang=${language} dir=${dir}>
        ${skip}
        <header>
          <p class="brand">${t('appName')}</p>
          <div class="controls">${this.#renderPreferences()}</div>
          ${announcer}
        </header>
        <main id="main" tabindex="-1">${this.#renderMain()}</main>
      </div>`;
    }
    return html`<div lang=${language} dir=${dir}>
      ${skip}
      <header>
        <p class="brand">${t('appName')} <span class="tenant">· ${me.tenant.name}</span></p>
        <div class="controls">
          <div class="field">
            <label for="environment">${t('environmentLabel')}</label>
            <select id="environment" @change=${(event: Event) => this.#preferences.chooseEnvironment(chosenValue(event), me)}>
              ${ENVIRONMENTS.map(
                (env) =>
                  html`<option value=${env} ?selected=${env === environment}>${t(`env_${env}` as MessageKey)}${
                    typeof waiting?.[env] === 'number' ? ` · ${t('queueCount', { count: waiting[env] })}` : ''
                  }</option>`,
              )}
            </select>
          </div>
          ${this.#renderPreferences()}
          <div class="user">
            <span>${t('signedInAs', { email: me.user.email })}
              (${t(`role_${me.user.role}` as MessageKey)})</span>
            <a class="small" href=${`${BASE}/security`}>${t('securityLink')}</a>
            <button type="button" class="secondary small" @click=${() => void this.#logout()}>${t('logout')}</button>
          </div>
        </div>
        ${environment === 'sandbox' ? html`<p class="banner">${t('sandboxBanner')}</p>` : nothing}
        ${me.tenant.status === 'suspended' ? html`<p class="banner" role="alert">${t('tenantSuspended')}</p>` : nothing}
        ${announcer}
      </header>
      <div class="layout">
        ${this.#renderNav()}
        <main id="main" tabindex="-1">${this.#renderMain()}</main>
      </div>
    </div>`;
  }
}

/** The value a `<select>` was changed to. */
function chosenValue(event: Event): string {
  return (event.target as HTMLSelectElement).value;
}
