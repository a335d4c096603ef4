import { ContextProvider } from '@lit/context';
import { css, html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { sharedStyles } from '../../../src/components/shared-styles.ts';
import { themeStyles } from '../../../src/components/theme-styles.ts';
import { ConsoleApi } from './api/console-api.ts';
import type { ConsoleApiError } from './api/console-api-error.ts';
import type { Environment, Schemas } from './api/console-api.ts';
import { ENVIRONMENTS } from './api/lists.ts';
import { TokenStore } from './auth/token-store.ts';
import { apiContext, translateContext } from './context.ts';
import { en, type MessageKey } from './i18n/en.ts';
import {
  CONSOLE_LOCALES,
  consoleTranslator,
  isRtl,
  LOCALE_NAMES,
  loadConsoleMessages,
  negotiateConsoleLocale,
  type Translate,
} from './i18n/localize.ts';
import { browserHistory, type ConsoleHistory } from './routing/history.ts';
import {
  BASE,
  consolePath,
  matchRoute,
  NOT_FOUND,
  ROUTES,
  type RouteDef,
  type RouteMatch,
  safeReturnPath,
  splitHref,
} from './routing/routes.ts';
import type {
  ConsoleScreen,
  LoggedInEvent,
  NavigateEvent,
  ScreenContext,
  TokenRenewedEvent,
} from './ui/console-screen.ts';
import { initialEnvironment, rememberEnvironment, waitingCounts } from './ui/environment-choice.ts';
import { readPreference, writePreference } from './ui/preferences.ts';

type Me = Schemas['Me'];

export type ConsoleTheme = 'auto' | 'light' | 'dark';
const THEMES: readonly ConsoleTheme[] = ['auto', 'light', 'dark'];

type Phase = 'starting' | 'ready';

/**
 * `<idv-console>`: the tenant staff's console, a single-page app under `/console/*`. It owns the session
 * (token in memory and sessionStorage), the route, the environment, theme and language, and renders
 * the current screen (each a lazy chunk) inside a shell whose navigation lists only what the user's
 * capabilities allow.
 *
 * @example
 *   <idv-console></idv-console>                      <!-- the app, on the API origin -->
 *   <idv-console .fetchImpl=${stub} .history=${memory}></idv-console>  <!-- tests -->
 */
export class IdvConsoleElement extends LitElement {
  static override styles = [
    themeStyles,
    sharedStyles,
    css`
      :host {
        min-block-size: 100vh;
      }
      a {
        color: var(--idv-color-primary-text);
      }
      a:focus-visible,
      main:focus-visible {
        outline: var(--idv-focus-ring);
        outline-offset: 2px;
      }
      main:focus {
        outline: none;
      }
      .skip {
        position: absolute;
        inset-inline-start: 0.5rem;
        inset-block-start: -10rem;
        z-index: 10;
        background: var(--idv-color-background);
        padding: 0.5rem 1rem;
        border-radius: var(--idv-radius);
      }
      .skip:focus {
        inset-block-start: 0.5rem;
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.75rem 1.5rem;
        padding: 0.75rem 1.25rem;
        border-block-end: 1px solid var(--idv-color-border);
      }
      .brand {
        font-weight: 700;
        margin: 0;
        margin-inline-end: auto;
      }
      .brand .tenant {
        font-weight: 400;
        color: var(--idv-color-muted);
      }
      .controls {
        display: flex;
        flex-wrap: wrap;
        align-items: end;
        gap: 0.75rem;
      }
      .controls label {
        font-size: 0.8125rem;
        margin: 0;
      }
      .controls select {
        inline-size: auto;
        min-height: 40px;
        padding-block: 0.25rem;
      }
      /* Room for the waiting counts ("Production · 12 waiting") before they are read: growing when
         they arrive, the picker wrapped the header and pushed the whole page down (layout shift). */
      .controls #environment {
        min-inline-size: 15rem;
      }
      .user {
        display: flex;
        align-items: center;
        gap: 0.5rem;
        font-size: 0.875rem;
      }
      .banner {
        flex-basis: 100%;
        background: var(--idv-color-banner);
        color: var(--idv-color-on-banner);
        margin: 0 -1.25rem -0.75rem;
        padding: 0.5rem 1.25rem;
        font-weight: 600;
      }
      .layout {
        display: flex;
        flex-wrap: wrap;
        align-items: flex-start;
      }
      nav {
        flex: 0 0 13rem;
        padding: 1rem 0.75rem;
      }
      nav ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      nav a {
        display: block;
        padding: 0.5rem 0.75rem;
        border-radius: var(--idv-radius);
        text-decoration: none;
        min-height: 44px;
        line-height: 1.75;
      }
      nav a[aria-current='page'] {
        background: var(--idv-color-primary);
        color: var(--idv-color-on-primary);
        font-weight: 600;
      }
      main {
        flex: 1 1 30rem;
        min-inline-size: 0;
        padding: 1.25rem;
      }
      button.small {
        min-height: 40px;
        padding: 0.25rem 0.75rem;
      }
      .public main {
        max-inline-size: 28rem;
        margin-inline: auto;
        flex: none;
        inline-size: 100%;
      }
      @media (max-width: 48rem) {
        nav {
          flex-basis: 100%;
          padding-block: 0.5rem 0;
        }
        nav ul {
          display: flex;
          flex-wrap: wrap;
          gap: 0.25rem;
        }
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    theme: { reflect: true },
    locale: {},
    apiBase: { attribute: 'api-base' },
    fetchImpl: { attribute: false },
    history: { attribute: false },
    phase: { state: true },
    me: { state: true },
    environment: { state: true },
    waiting: { state: true },
    t: { state: true },
    language: { state: true },
    announcement: { state: true },
    notice: { state: true },
    screenError: { state: true },
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
  declare phase: Phase;
  declare me: Me | null;
  declare environment: Environment;
  /** Sessions waiting for review per environment, shown in the picker; null until read. */
  declare waiting: Record<Environment, number | null> | null;
  declare t: Translate;
  declare language: string;
  declare announcement: string;
  /** A message for the login page (the session ended). */
  declare notice: MessageKey | null;
  declare screenError: unknown;

  readonly tokens = new TokenStore();
  readonly api: ConsoleApi;
  readonly #translateProvider: ContextProvider<typeof translateContext>;
  #screen: HTMLElement | null = null;
  #screenRoute: RouteDef | null = null;
  #ctx: ScreenContext | null = null;
  #unlisten: (() => void) | null = null;
  #navigation = 0;
  #localeRequest = 0;
  #expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The token may only enrol a second factor: the security page is the one page it opens. */
  #enrolmentOnly = false;

  constructor() {
    super();
    this.theme = (readPreference('local', 'theme') as ConsoleTheme | null) ?? 'auto';
    if (!THEMES.includes(this.theme)) this.theme = 'auto';
    this.locale = null;
    this.apiBase = '';
    this.fetchImpl = null;
    this.history = browserHistory;
    this.phase = 'starting';
    this.me = null;
    const remembered = readPreference('session', 'environment');
    this.environment = remembered === 'sandbox' ? 'sandbox' : 'production';
    this.waiting = null;
    this.t = consoleTranslator(en, 'en');
    this.language = 'en';
    this.announcement = '';
    this.notice = null;
    this.screenError = null;
    this.api = new ConsoleApi({
      base: '',
      fetch: (input, init) =>
        (this.fetchImpl ?? globalThis.fetch.bind(globalThis))(this.#apiUrl(input), init),
      token: () => this.tokens.token,
      environment: () => this.environment,
      onUnauthorized: (error) => this.#sessionEnded(error),
    });
    // Every element inside the console reads these by context (context.ts) rather than by hand.
    new ContextProvider(this, { context: apiContext, initialValue: this.api });
    this.#translateProvider = new ContextProvider(this, { context: translateContext, initialValue: this.t });
    this.addEventListener('click', (event) => this.#interceptLink(event));
    this.addEventListener('idv-navigate', (event) => {
      const { href, replace } = event as NavigateEvent;
      this.navigate(href, replace);
    });
    this.addEventListener('idv-logged-in', (event) => void this.#loggedIn(event as LoggedInEvent));
    this.addEventListener('idv-token-renewed', (event) => {
      const { token, expiresIn } = event as TokenRenewedEvent;
      this.tokens.set(token, expiresIn);
      this.#scheduleExpiry();
    });
  }

  #apiUrl(input: RequestInfo | URL): RequestInfo | URL {
    return typeof input === 'string' && this.apiBase ? `${this.apiBase.replace(/\/$/, '')}${input}` : input;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unlisten = this.history.listen(() => void this.#route());
    void this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unlisten?.();
    this.#unlisten = null;
    clearTimeout(this.#expiryTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale') && this.hasUpdated) void this.#loadLocale();
    if (changed.has('t')) this.#translateProvider.setValue(this.t);
    if (changed.has('t') || changed.has('environment') || changed.has('me') || changed.has('language')) {
      this.#refreshContext();
    }
  }

  /** Opens a console page: `href` is a path (and query) under /console. */
  navigate(href: string, replace = false): void {
    if (href === this.history.href) return void this.#route();
    if (replace) this.history.replace(href);
    else this.history.push(href);
    void this.#route();
  }

  // ---- start, login, logout ----------------------------------------------------------------------

  async #start(): Promise<void> {
    await this.#loadLocale();
    if (this.tokens.token) {
      try {
        this.me = await this.api.me();
        this.#scheduleExpiry();
        await this.#settleEnvironment();
      } catch (error) {
        // 401 already cleared the token (onUnauthorized); any other failure leaves the user at the login,
        // except a token that may only enrol a second factor (a reload of the security page): back there.
        this.me = null;
        this.#enrolmentOnly = (error as Partial<ConsoleApiError>).code === 'second_factor_required';
      }
    }
    this.phase = 'ready';
    if (this.#enrolmentOnly) this.navigate(`${BASE}/security`, true);
    else await this.#route();
  }

  async #loggedIn(event: LoggedInEvent): Promise<void> {
    this.tokens.set(event.token, event.expiresIn);
    this.notice = null;
    this.#enrolmentOnly = event.enrolmentOnly;
    if (event.enrolmentOnly) {
      // The token reaches only the second-factor enrolment (even /v1/me refuses it): straight there.
      this.me = null;
      this.#scheduleExpiry();
      this.navigate(`${BASE}/security`, true);
      return;
    }
    this.me = await this.api.me();
    this.#scheduleExpiry();
    await this.#settleEnvironment();
    const next = safeReturnPath(this.#current()?.query.get('next'));
    const nextRoute = next ? matchRoute(splitHref(next).pathname)?.route : null;
    const allowed = nextRoute && nextRoute !== NOT_FOUND && this.#allows(nextRoute);
    this.navigate(allowed && next ? next : this.me.default_path, true);
  }

  async #logout(): Promise<void> {
    try {
      await this.api.logout();
    } catch {
      // The token may already be dead; the user is logged out locally either way.
    }
    this.tokens.clear();
    clearTimeout(this.#expiryTimer);
    this.me = null;
    this.#enrolmentOnly = false;
    this.navigate(`${BASE}/login`);
  }

  /** Any 401: the token expired or was revoked. Back to the login, which then returns here. */
  #sessionEnded(_error?: ConsoleApiError): void {
    if (!this.me && !this.tokens.token) return;
    this.tokens.clear();
    clearTimeout(this.#expiryTimer);
    this.me = null;
    this.#enrolmentOnly = false;
    this.notice = 'sessionEnded';
    const current = this.#current();
    const next = current && !current.route.public ? current.href : null;
    this.navigate(consolePath(['login'], { next: next ?? undefined }), true);
  }

  /** Ends the session when the token expires, even if the user makes no request (an idle tab). */
  #scheduleExpiry(): void {
    clearTimeout(this.#expiryTimer);
    const remaining = this.tokens.remainingMs;
    // setTimeout holds at most ~24.8 days; tokens live an hour by default.
    if (remaining > 0 && remaining < 2 ** 31 - 1) {
      this.#expiryTimer = setTimeout(() => this.#sessionEnded(), remaining);
    }
  }

  // ---- routing ------------------------------------------------------------------------------------

  #current(): RouteMatch | null {
    const { pathname, search, fragment } = splitHref(this.history.href);
    return matchRoute(pathname, search, fragment);
  }

  #allows(route: RouteDef): boolean {
    return route.capability === null || (this.me?.capabilities.includes(route.capability) ?? false);
  }

  /** Same-origin links under /console are handled here instead of loading a new page. */
  #interceptLink(event: MouseEvent): void {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const anchor = event
      .composedPath()
      .find(
        (node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement && node.hasAttribute('href'),
      );
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === BASE || url.pathname.startsWith(`${BASE}/`)))
      return;
    event.preventDefault();
    this.navigate(`${url.pathname}${url.search}${url.hash}`);
  }

  async #route(): Promise<void> {
    if (this.phase !== 'ready') return;
    const navigation = ++this.#navigation;
    const match = this.#current();
    if (!match) {
      this.navigate(this.me ? this.me.default_path : `${BASE}/login`, true);
      return;
    }
    const enrolling = this.#enrolmentOnly && match.route.name === 'security';
    if (!match.route.public && !this.me && !enrolling) {
      this.navigate(consolePath(['login'], { next: match.href }), true);
      return;
    }
    if (match.route.name === 'login' && this.me) {
      this.navigate(this.me.default_path, true);
      return;
    }
    const allowed = this.#allows(match.route);
    const route = allowed ? match.route : NOT_FOUND;
    const params = allowed ? match.params : { reason: 'forbidden' };
    this.screenError = null;
    try {
      await route.load();
    } catch (error) {
      if (navigation !== this.#navigation) return;
      this.screenError = error;
      return;
    }
    if (navigation !== this.#navigation) return;
    if (this.#screenRoute !== route || !this.#screen) {
      this.#screen = document.createElement(route.tag);
      this.#screenRoute = route;
    }
    const screen = this.#screen as ConsoleScreen;
    screen.ctx = this.#context();
    screen.params = params;
    screen.query = match.query;
    screen.fragment = match.fragment;
    this.requestUpdate();
    await this.updateComplete;
    const title = this.t(allowed ? route.title : 'noAccessTitle');
    document.title = this.t('pageTitle', { page: title });
    await screen.focusHeading?.();
    // Cleared first so the same title twice is announced twice.
    this.announcement = '';
    await this.updateComplete;
    this.announcement = title;
  }

  #context(): ScreenContext {
    this.#ctx ??= this.#newContext();
    return this.#ctx;
  }

  #newContext(): ScreenContext {
    return { locale: this.language, me: this.me, environment: this.environment };
  }

  #refreshContext(): void {
    this.#ctx = this.#newContext();
    if (this.#screen) (this.#screen as ConsoleScreen).ctx = this.#ctx;
  }

  // ---- language, theme, environment ---------------------------------------------------------------

  async #loadLocale(): Promise<void> {
    const request = ++this.#localeRequest;
    const wanted = negotiateConsoleLocale([
      this.locale,
      readPreference('local', 'locale'),
      ...(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])),
    ]);
    let messages = en;
    try {
      messages = await loadConsoleMessages(wanted);
    } catch {
      // A locale chunk that fails to load leaves the console in English rather than broken.
    }
    if (request !== this.#localeRequest) return;
    this.language = messages === en ? 'en' : wanted;
    this.t = consoleTranslator(messages, this.language);
    document.documentElement.lang = this.language;
    document.documentElement.dir = isRtl(this.language) ? 'rtl' : 'ltr';
    if (this.#screenRoute) document.title = this.t('pageTitle', { page: this.t(this.#screenRoute.title) });
  }

  #chooseLocale(event: Event): void {
    const value = (event.target as HTMLSelectElement).value;
    writePreference('local', 'locale', value);
    this.locale = value;
  }

  #chooseTheme(event: Event): void {
    const value = (event.target as HTMLSelectElement).value as ConsoleTheme;
    if (!THEMES.includes(value)) return;
    this.theme = value;
    writePreference('local', 'theme', value);
  }

  #chooseEnvironment(event: Event): void {
    const value = (event.target as HTMLSelectElement).value as Environment;
    if (!ENVIRONMENTS.includes(value)) return;
    this.environment = value;
    rememberEnvironment(this.me?.user.user_id, value);
    this.#countWaiting();
  }

  /**
   * Once the user is known: this tab's environment, else their last one, else sandbox for a tenant with
   * no production session (ui/environment-choice.ts); then the picker's waiting counts.
   */
  async #settleEnvironment(): Promise<void> {
    const me = this.me;
    if (!me) return;
    const canRead = me.capabilities.includes('sessions:read');
    this.environment = await initialEnvironment(this.api, me.user.user_id, canRead);
    this.#countWaiting();
  }

  #countWaiting(): void {
    if (!this.me?.capabilities.includes('sessions:read')) return;
    void waitingCounts(this.api).then((counts) => {
      this.waiting = counts;
    });
  }

  #skipToMain(): void {
    const main = this.renderRoot.querySelector<HTMLElement>('main');
    main?.focus();
  }

  // ---- rendering ----------------------------------------------------------------------------------

  #renderPreferences() {
    const t = this.t;
    return html`<div class="field">
        <label for="locale">${t('languageLabel')}</label>
        <select id="locale" @change=${this.#chooseLocale}>
          ${CONSOLE_LOCALES.map(
            (code) =>
              html`<option value=${code} lang=${code} ?selected=${code === this.language}>${LOCALE_NAMES[code] ?? code}</option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="theme">${t('themeLabel')}</label>
        <select id="theme" @change=${this.#chooseTheme}>
          ${THEMES.map(
            (theme) =>
              html`<option value=${theme} ?selected=${theme === this.theme}>${t(`theme_${theme}` as MessageKey)}</option>`,
          )}
        </select>
      </div>`;
  }

  #renderNav() {
    const current = this.#screenRoute;
    const items = ROUTES.filter((route) => route.nav && this.#allows(route));
    return html`<nav aria-label=${this.t('navLabel')}>
      <ul>
        ${items.map((route) => {
          const active = current === route || (current?.pattern.startsWith(`${route.pattern}/`) ?? false);
          return html`<li>
            <a href=${`${BASE}/${route.pattern}`} aria-current=${active ? 'page' : nothing}>${this.t(route.title)}</a>
          </li>`;
        })}
      </ul>
    </nav>`;
  }

  #renderMain() {
    if (this.phase === 'starting') return html`<p role="status">${this.t('loading')}</p>`;
    if (this.screenError) {
      return html`<div role="alert">
        <p class="error">${this.t('networkError')}</p>
        <button type="button" @click=${() => void this.#route()}>${this.t('retry')}</button>
      </div>`;
    }
    return html`${
      this.notice && this.#screenRoute?.name === 'login'
        ? html`<p class="notice" role="alert">${this.t(this.notice)}</p>`
        : nothing
    }${this.#screen ?? nothing}`;
  }

  override render() {
    const t = this.t;
    const signedIn = this.me !== null && this.phase === 'ready' && !this.#screenRoute?.public;
    const dir = isRtl(this.language) ? 'rtl' : 'ltr';
    // A button rather than `<a href="#main">`: the target lives in this shadow root, where a fragment link
    // cannot reach it; the button moves focus there itself.
    const skip = html`<button type="button" class="skip" @click=${this.#skipToMain}>${t('skipToContent')}</button>`;
    const announcer = html`<div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      ${this.announcement}
    </div>`;
    if (!signedIn || !this.me) {
      return html`<div class="public" lang=${this.language} dir=${dir}>
        ${skip}
        <header>
          <p class="brand">${t('appName')}</p>
          <div class="controls">${this.#renderPreferences()}</div>
          ${announcer}
        </header>
        <main id="main" tabindex="-1">${this.#renderMain()}</main>
      </div>`;
    }
    const me = this.me;
    return html`<div lang=${this.language} dir=${dir}>
      ${skip}
      <header>
        <p class="brand">${t('appName')} <span class="tenant">· ${me.tenant.name}</span></p>
        <div class="controls">
          <div class="field">
            <label for="environment">${t('environmentLabel')}</label>
            <select id="environment" @change=${this.#chooseEnvironment}>
              ${ENVIRONMENTS.map(
                (env) =>
                  html`<option value=${env} ?selected=${env === this.environment}>${t(`env_${env}` as MessageKey)}${
                    typeof this.waiting?.[env] === 'number'
                      ? ` · ${t('queueCount', { count: this.waiting[env] })}`
                      : ''
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
        ${this.environment === 'sandbox' ? html`<p class="banner">${t('sandboxBanner')}</p>` : nothing}
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
