import type { ReactiveController, ReactiveElement } from 'lit';
import type { Translate } from '../i18n/localize.ts';
import type { ConsoleHistory } from '../routing/history.ts';
import { BASE, matchRoute, type RouteDef, type RouteMatch, splitHref } from '../routing/routes.ts';
import type { ConsoleScreen, NavigateEvent, ScreenContext } from '../ui/console-screen.ts';

/** Where a URL leads for the current user: another URL, or a screen with its params. */
export type RouteDecision = { redirect: string } | { route: RouteDef; params: Record<string, string> };

export interface RouterOptions {
  /** The history to read and change (the host's, which tests replace). */
  history: () => ConsoleHistory;
  /** The rules of access: who may open what, and where they go instead. */
  decide: (match: RouteMatch | null) => RouteDecision;
  /** The shell's context for the screen shown. */
  context: () => ScreenContext;
  t: () => Translate;
}

/**
 * The console's routing: the history (back and forward included), same-origin links under /console
 * opened in place, `idv-navigate` events from screens, and the screen of the current URL: its lazy chunk
 * loaded, its element kept while the route stays the same, the page title set, its heading focused and
 * its title announced. Routing waits for `start()`: before the session is known, no page can be chosen.
 *
 * @example
 *   readonly #router = new RouterController(this, { history: () => this.history, decide, context, t });
 *   this.#router.start(); // once the session is known
 *   render() { return html`<main>${this.#router.screen}</main>`; }
 */
export class RouterController implements ReactiveController {
  /** The element of the screen shown (kept while the route stays the same); null before the first. */
  screen: ConsoleScreen | null = null;
  route: RouteDef | null = null;
  /** A screen's chunk that failed to load (offline), for the shell's retry. */
  error: unknown = null;
  /** The title of the page just opened, for the live region (cleared first, so a repeat is heard). */
  announcement = '';
  /** Whether routing has started (the session is known). */
  started = false;
  readonly #host: ReactiveElement;
  readonly #options: RouterOptions;
  #navigation = 0;
  #unlisten: (() => void) | null = null;

  constructor(host: ReactiveElement, options: RouterOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
    host.addEventListener('click', (event) => this.#interceptLink(event));
    host.addEventListener('idv-navigate', (event) => {
      const { href, replace } = event as NavigateEvent;
      this.navigate(href, replace);
    });
  }

  hostConnected(): void {
    this.#unlisten = this.#options.history().listen(() => void this.show());
  }

  hostDisconnected(): void {
    this.#unlisten?.();
    this.#unlisten = null;
  }

  /** The current URL's route, or null when no route matches it. */
  current(): RouteMatch | null {
    const { pathname, search, fragment } = splitHref(this.#options.history().href);
    return matchRoute(pathname, search, fragment);
  }

  /** Opens a console page: `href` is a path (and query) under /console. */
  navigate(href: string, replace = false): void {
    const history = this.#options.history();
    if (href === history.href) return void this.show();
    if (replace) history.replace(href);
    else history.push(href);
    void this.show();
  }

  /** Starts routing: shows the current URL's page, or opens `href` instead. */
  start(href?: string): Promise<void> | void {
    this.started = true;
    this.#host.requestUpdate();
    return href ? this.navigate(href, true) : this.show();
  }

  /** Shows the current URL's page (again, after a failed chunk: the retry). */
  async show(): Promise<void> {
    if (!this.started) return;
    const navigation = ++this.#navigation;
    const match = this.current();
    const decision = this.#options.decide(match);
    if ('redirect' in decision) return this.navigate(decision.redirect, true);
    const { route, params } = decision;
    this.error = null;
    try {
      await route.load();
    } catch (error) {
      if (navigation !== this.#navigation) return;
      this.error = error;
      this.#host.requestUpdate();
      return;
    }
    if (navigation !== this.#navigation) return;
    if (this.route !== route || !this.screen) {
      this.screen = document.createElement(route.tag) as ConsoleScreen;
      this.route = route;
    }
    const screen = this.screen;
    screen.ctx = this.#options.context();
    screen.params = params;
    screen.query = match?.query ?? new URLSearchParams();
    screen.fragment = match?.fragment ?? '';
    this.#host.requestUpdate();
    await this.#host.updateComplete;
    this.retitle();
    await screen.focusHeading?.();
    const title = this.#title();
    // Cleared first so the same title twice is announced twice.
    this.announcement = '';
    this.#host.requestUpdate();
    await this.#host.updateComplete;
    this.announcement = title;
    this.#host.requestUpdate();
  }

  /** Sets the document's title for the page shown (again after a change of language). */
  retitle(): void {
    if (!this.route) return;
    document.title = this.#options.t()('pageTitle', { page: this.#title() });
  }

  #title(): string {
    const { route, screen } = this;
    const forbidden = route?.name === 'not_found' && screen?.params['reason'] === 'forbidden';
    return this.#options.t()(forbidden ? 'noAccessTitle' : (route?.title ?? 'loading'));
  }

  /** Same-origin links under /console open here instead of loading a new page. */
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
}
