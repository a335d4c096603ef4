import { expect } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import { until } from '../support/dom.ts';
import { chromiumOnly } from '../support/engine.ts';
import { PASSWORD } from './support/fake-console-backend.ts';
import {
  deepActiveElement,
  mountConsole,
  resetStorage,
  screenHeading,
  screenOf,
  screenShows,
  settled,
} from './support/mount-console.ts';

function shell(el: HTMLElement): ShadowRoot {
  return el.shadowRoot!;
}

async function logIn(el: HTMLElement, email: string, password = PASSWORD): Promise<void> {
  const screen = await until(
    () => {
      const current = screenOf(el as never);
      return current?.tagName === 'IDV-LOGIN-SCREEN' && current.shadowRoot?.querySelector('form')
        ? current
        : null;
    },
    4000,
    'the login form',
  );
  const root = screen.shadowRoot!;
  (root.querySelector('#email') as HTMLInputElement).value = email;
  (root.querySelector('#password') as HTMLInputElement).value = password;
  root.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
}

function navLabels(el: HTMLElement): string[] {
  return [...shell(el).querySelectorAll('nav a')].map((a) => a.textContent?.trim() ?? '');
}

describe('console shell', () => {
  afterEach(() => resetStorage());

  it('sends a signed-out visitor to the login, then to the page they asked for', async () => {
    const { el, history } = await mountConsole({ path: '/console/dashboard' });
    expect(history.href).to.equal('/console/login?next=%2Fconsole%2Fdashboard');
    expect(screenHeading(el)?.textContent).to.equal('Log in');
    await logIn(el, 'admin@tenant.test');
    await until(() => history.href === '/console/dashboard', 4000, 'the dashboard');
    await screenShows(el, 'Approval rate');
  });

  it('opens default_path after a plain login, keeps the token in sessionStorage only', async () => {
    const { el, history } = await mountConsole({ path: '/console/login' });
    await logIn(el, 'admin@tenant.test', 'wrong password');
    await screenShows(el, 'The e-mail or password is incorrect.');
    await logIn(el, 'admin@tenant.test');
    await until(() => history.href === '/console/dashboard', 4000, 'default_path');
    const stored = JSON.parse(sessionStorage.getItem('idv-console-token') ?? '{}');
    expect(stored.token).to.match(/^tok_tenant_admin_/);
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i)!;
      expect(localStorage.getItem(key) ?? '').not.to.include(stored.token);
    }
  });

  it('answers a 401 with the login and returns to the page afterwards', async () => {
    const { el, backend, history } = await mountConsole({ role: 'tenant_admin', path: '/console/dashboard' });
    await screenShows(el, 'Approval rate');
    backend.expireTokens();
    // Any call now answers 401: switching the environment reloads the page's data. Switch to the one not
    // shown: the console settles its first environment after the page loads (the user's last one, or
    // sandbox when production is empty), and "switching" to the environment already shown reloads nothing.
    const select = shell(el).querySelector<HTMLSelectElement>('#environment')!;
    select.value = select.value === 'production' ? 'sandbox' : 'production';
    select.dispatchEvent(new Event('change'));
    // 10 s: Firefox on a busy 2-core runner took over 4 s to reach the login about one run in five, and
    // as long to return after it (6 s failed once in a clean-clone run).
    await until(() => history.href.startsWith('/console/login'), 10_000, 'the login');
    expect(history.href).to.equal('/console/login?next=%2Fconsole%2Fdashboard');
    await screenShows(el, 'Log in');
    expect(shell(el).textContent).to.include('Your session has ended');
    expect(sessionStorage.getItem('idv-console-token')).to.equal(null);
    await logIn(el, 'admin@tenant.test');
    await until(() => history.href === '/console/dashboard', 10_000, 'back on the dashboard');
  });

  it('lists only the pages the role may use, and refuses the others', async () => {
    const { el, history } = await mountConsole({ role: 'viewer', path: '/console/dashboard' });
    expect(navLabels(el)).to.deep.equal(['Dashboard', 'Sessions', 'Identities', 'Webhooks']);
    el.navigate('/console/settings');
    await until(() => screenHeading(el)?.textContent === 'No access', 4000, 'no access');
    expect(history.href).to.equal('/console/settings');

    const admin = await mountConsole({ role: 'tenant_admin', path: '/console/dashboard' });
    expect(navLabels(admin.el)).to.deep.equal([
      'Dashboard',
      'Sessions',
      'Review queue',
      'Identities',
      'Webhooks',
      'API keys',
      'Team',
      'Settings',
      'Audit log',
    ]);
  });

  it('switches the environment for every call and marks sandbox data', async () => {
    const { el, backend } = await mountConsole({ role: 'tenant_admin', path: '/console/dashboard' });
    await screenShows(el, 'Approval rate');
    expect(shell(el).querySelector('.banner')?.textContent).to.include('Sandbox');
    expect(screenOf(el)?.shadowRoot?.querySelector('.sandbox-badge')).to.exist;
    const last = () => backend.requests.filter((r) => r.path === '/v1/stats').at(-1)!;
    expect(last().headers.get('x-environment')).to.equal('sandbox');
    const select = shell(el).querySelector<HTMLSelectElement>('#environment')!;
    select.value = 'production';
    select.dispatchEvent(new Event('change'));
    await until(() => last().headers.get('x-environment') === 'production', 4000, 'a production call');
    await settled(el);
    expect(shell(el).querySelector('.banner')).to.equal(null);
    expect(screenOf(el)?.shadowRoot?.querySelector('.sandbox-badge')).to.equal(null);
    expect(sessionStorage.getItem('idv-console-environment')).to.equal('production');
  });

  it('moves focus to the new heading, announces it and sets the document title', async () => {
    const { el, history } = await mountConsole({ role: 'tenant_admin', path: '/console/dashboard' });
    await settled(el);
    const link = [...shell(el).querySelectorAll<HTMLAnchorElement>('nav a')].find(
      (a) => a.textContent === 'Audit log',
    )!;
    link.click();
    await until(() => screenHeading(el)?.textContent === 'Audit log', 4000, 'the audit page');
    expect(history.href).to.equal('/console/audit');
    await until(() => deepActiveElement()?.tagName === 'H1', 2000, 'focus on the heading');
    expect(deepActiveElement()?.textContent).to.equal('Audit log');
    await until(
      () => shell(el).querySelector('[role=status][aria-live]')?.textContent?.trim() === 'Audit log',
      2000,
      'announcement',
    );
    expect(document.title).to.equal('Audit log · id-verify console');
    expect(link.getAttribute('aria-current')).to.equal('page');
    history.back();
    await until(() => screenHeading(el)?.textContent === 'Dashboard', 4000, 'back to the dashboard');
  });

  it('has a skip link to the main content as the first tab stop', async () => {
    const { el } = await mountConsole({ role: 'tenant_admin', path: '/console/dashboard' });
    await settled(el);
    (document.activeElement as HTMLElement | null)?.blur();
    el.focus();
    const skip = shell(el).querySelector<HTMLButtonElement>('.skip')!;
    expect(skip.textContent).to.equal('Skip to main content');
    skip.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => deepActiveElement()?.tagName === 'MAIN', 2000, 'focus on main');
  });

  it('logs out: revokes the token on the server and forgets it', async () => {
    const { el, backend, history } = await mountConsole({ role: 'developer', path: '/console/sessions' });
    const button = [...shell(el).querySelectorAll('button')].find((b) => b.textContent === 'Log out')!;
    button.click();
    await until(() => history.href === '/console/login', 4000, 'the login page');
    expect(backend.writes()).to.include('POST /v1/console/logout');
    expect(backend.tokens.size).to.equal(0);
    expect(sessionStorage.getItem('idv-console-token')).to.equal(null);
  });

  it('follows the system colour scheme, and the theme menu overrides it', async function () {
    chromiumOnly(this, 'emulateMedia needs the DevTools protocol');
    await emulateMedia({ colorScheme: 'dark' });
    try {
      const { el } = await mountConsole({ role: 'viewer', path: '/console/sessions', theme: 'auto' });
      const background = () => getComputedStyle(el).backgroundColor;
      expect(background()).to.equal('rgb(18, 20, 24)');
      const select = shell(el).querySelector<HTMLSelectElement>('#theme')!;
      select.value = 'light';
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
      expect(el.getAttribute('theme')).to.equal('light');
      expect(background()).to.equal('rgb(255, 255, 255)');
      expect(localStorage.getItem('idv-console-theme')).to.equal('light');
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('turns animations off under prefers-reduced-motion', async function () {
    chromiumOnly(this, 'emulateMedia needs the DevTools protocol');
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      const { el } = await mountConsole({ role: 'viewer', path: '/console/sessions' });
      const probe = document.createElement('div');
      probe.className = 'spinner';
      screenOf(el)!.shadowRoot!.append(probe);
      expect(Number.parseFloat(getComputedStyle(probe).animationDuration)).to.be.below(0.001);
      probe.remove();
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('speaks German and Arabic, right to left for Arabic', async () => {
    const { el } = await mountConsole({ role: 'tenant_admin', path: '/console/dashboard', locale: 'de' });
    expect(navLabels(el)[0]).to.equal('Übersicht');
    expect(document.documentElement.lang).to.equal('de');
    el.locale = 'ar';
    await until(() => document.documentElement.dir === 'rtl', 4000, 'rtl');
    expect(shell(el).querySelector('[dir]')?.getAttribute('dir')).to.equal('rtl');
    el.locale = 'en';
    await until(() => document.documentElement.dir === 'ltr', 4000, 'ltr again');
  });
});
