import { fixture, html } from '@open-wc/testing';
import '../../../../server/web/console/main.ts';
import type { Role } from '../../../../server/web/console/api/console-api.ts';
import type { IdvConsoleElement } from '../../../../server/web/console/console-element.ts';
import { MemoryHistory } from '../../../../server/web/console/routing/history.ts';
import { NOT_FOUND, ROUTES } from '../../../../server/web/console/routing/routes.ts';
import { loadConsoleMessages } from '../../../../server/web/console/i18n/localize.ts';
import { until } from '../../support/dom.ts';
import { FakeConsoleBackend } from './fake-console-backend.ts';

export interface Mounted {
  el: IdvConsoleElement;
  backend: FakeConsoleBackend;
  history: MemoryHistory;
}

export interface MountOptions {
  /** Signed in with this role (a token in sessionStorage, as after a login); none: signed out. */
  role?: Role;
  path?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
  /** The environment this tab chose before; null: none (a new tab, which the console decides for). */
  environment?: 'sandbox' | 'production' | null;
  backend?: FakeConsoleBackend;
}

/** Forgets the token and the display choices a previous test left in storage. */
export function resetStorage(): void {
  sessionStorage.removeItem('idv-console-token');
  sessionStorage.removeItem('idv-console-environment');
  localStorage.removeItem('idv-console-theme');
  localStorage.removeItem('idv-console-locale');
}

/**
 * `<idv-console>` at `/console/login` in sandbox, its API calls sent to `fetchImpl`, for a suite whose
 * tests share one console (open-wc's `fixture()` removes the element after each test): the suite removes
 * it in its `after`.
 */
export function sharedConsole(fetchImpl: typeof fetch): { el: IdvConsoleElement; history: MemoryHistory } {
  sessionStorage.setItem('idv-console-environment', 'sandbox');
  const history = new MemoryHistory('/console/login');
  const el = document.createElement('idv-console') as IdvConsoleElement;
  el.setAttribute('theme', 'light');
  el.setAttribute('locale', 'en');
  el.fetchImpl = fetchImpl;
  el.history = history;
  document.body.append(el);
  return { el, history };
}

let screensLoaded: Promise<unknown> | undefined;

/**
 * Every screen's lazy chunk, loaded once per page. The test server compiles each chunk on its first
 * request, which on a loaded two-core runner took longer than mountConsole's wait for a heading (seen
 * for the settings and review-queue screens in the axe suite); a suite that mounts many screens loads them
 * first, in its own `before` with a budget of its own, so that wait measures the screen alone.
 */
export function loadConsoleScreens(locale = 'en'): Promise<unknown> {
  screensLoaded ??= Promise.all([...ROUTES, NOT_FOUND].map((route) => route.load()));
  // The locale's messages too (a chunk of their own): the Arabic login screen, the first mount after
  // them, waited over 30 s for its heading while the demo's cold Vite server bundled beside it (CI).
  return Promise.all([screensLoaded, loadConsoleMessages(locale)]);
}

/**
 * `<idv-console>` on a fake backend and an in-memory history, started on `path`, waiting until the page's
 * screen has rendered its heading.
 */
export async function mountConsole(options: MountOptions = {}): Promise<Mounted> {
  resetStorage();
  const backend = options.backend ?? new FakeConsoleBackend();
  if (options.role) {
    const token = backend.tokenFor(options.role);
    sessionStorage.setItem('idv-console-token', JSON.stringify({ token, expiresAt: Date.now() + 3_600_000 }));
  }
  if (options.environment !== null) {
    sessionStorage.setItem('idv-console-environment', options.environment ?? 'sandbox');
  }
  const history = new MemoryHistory(options.path ?? '/console/');
  const el = await fixture<IdvConsoleElement>(
    html`<idv-console
      theme=${options.theme ?? 'light'}
      locale=${options.locale ?? 'en'}
      .fetchImpl=${backend.fetch}
      .history=${history}
    ></idv-console>`,
  );
  // 30 s: a screen's first mount loads its module, which the test server compiles on first request; on a
  // busy two-core runner that took over 4 s once (sessions and session detail, CI), and over 10 s on a
  // slower one (the login screen in Arabic, 2026-11-29).
  await until(() => screenHeading(el), 30_000, 'the screen heading');
  return { el, backend, history };
}

/** The element of the current screen. */
export function screenOf(el: IdvConsoleElement): (HTMLElement & { updateComplete: Promise<unknown> }) | null {
  const main = el.shadowRoot?.querySelector('main');
  return ([...(main?.children ?? [])].find((child) => child.tagName.startsWith('IDV-')) ?? null) as never;
}

export function screenHeading(el: IdvConsoleElement): HTMLElement | null {
  return screenOf(el)?.shadowRoot?.querySelector('h1') ?? null;
}

/** Waits until the current screen shows `text` somewhere (loads are async). */
export async function screenShows(
  el: IdvConsoleElement,
  text: string | RegExp,
  ms = 4000,
): Promise<HTMLElement> {
  return until(
    () => {
      const screen = screenOf(el);
      const content = screen?.shadowRoot?.textContent ?? '';
      return (typeof text === 'string' ? content.includes(text) : text.test(content)) ? screen : null;
    },
    ms,
    `the screen to show ${String(text)}`,
  );
}

/** Everything focused, through shadow roots. */
export function deepActiveElement(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Waits for every pending render of the shell and its screen. */
export async function settled(el: IdvConsoleElement): Promise<void> {
  await el.updateComplete;
  await screenOf(el)?.updateComplete;
  await new Promise((resolve) => setTimeout(resolve, 30));
}
