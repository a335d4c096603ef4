import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { until } from '../support/dom.ts';
import { FakeConsoleBackend, PASSWORD, TOTP_CODE } from './support/fake-console-backend.ts';
import { deepActiveElement, mountConsole, resetStorage, screenOf, settled } from './support/mount-console.ts';

const ADMIN = 'admin@tenant.test';

/** The second step inside the login screen's shadow root. */
function secondStep(el: HTMLElement): ShadowRoot | null {
  return screenOf(el as never)?.shadowRoot?.querySelector('idv-second-factor-step')?.shadowRoot ?? null;
}

function focusedText(): string {
  const active = deepActiveElement();
  return `${active?.tagName.toLowerCase()}#${active?.id}`;
}

/**
 * The password step sent with the keyboard: the fields filled in (WebKit's driver drops the spaces of a
 * typed passphrase), then Enter in the password field.
 */
async function passwordStepByKeyboard(el: HTMLElement): Promise<void> {
  const login = await until(() => screenOf(el as never)?.shadowRoot ?? null, 4000, 'the login form');
  const email = await until(() => login.querySelector<HTMLInputElement>('#email'), 4000, 'the e-mail field');
  email.value = ADMIN;
  const password = login.querySelector<HTMLInputElement>('#password') as HTMLInputElement;
  password.value = PASSWORD;
  password.focus();
  await sendKeys({ press: 'Enter' });
}

describe('console second factors (fake backend)', () => {
  afterEach(() => resetStorage());

  it('logs in with the password, then the authenticator code, by keyboard; a wrong code says so', async () => {
    const backend = new FakeConsoleBackend();
    backend.secondFactorEmails.add(ADMIN);
    const { el, history } = await mountConsole({ path: '/console/login', backend });
    await passwordStepByKeyboard(el);
    const step = await until(
      () => secondStep(el)?.querySelector<HTMLInputElement>('#code'),
      4000,
      'the second step',
    );
    expect(history.href, 'no token before the second factor').to.equal('/console/login');
    expect(secondStep(el)?.querySelector('h1')?.textContent).to.equal('Second factor');
    await until(() => focusedText() === 'h1#', 2000, 'focus on the step heading');
    await sendKeys({ press: 'Tab' });
    expect(focusedText()).to.equal('input#code');
    expect(step.getAttribute('autocomplete')).to.equal('one-time-code');

    await sendKeys({ type: '000000' });
    await sendKeys({ press: 'Enter' });
    const alert = await until(() => secondStep(el)?.querySelector('[role=alert]'), 4000, 'the error');
    expect(alert.textContent).to.include('incorrect or was already used');
    expect(step.getAttribute('aria-describedby')).to.equal('second-factor-error');
    expect(focusedText(), 'focus stays in the code field').to.equal('input#code');

    step.value = '';
    await sendKeys({ type: TOTP_CODE });
    await sendKeys({ press: 'Enter' });
    await until(() => history.href === '/console/dashboard', 4000, 'the dashboard');
  });

  it('offers a recovery code instead, and starts over at the password', async () => {
    const backend = new FakeConsoleBackend();
    backend.secondFactorEmails.add(ADMIN);
    const { el } = await mountConsole({ path: '/console/login', backend });
    await passwordStepByKeyboard(el);
    await until(() => secondStep(el)?.querySelector('#code'), 4000, 'the second step');
    const switchButton = [...(secondStep(el)?.querySelectorAll('button') ?? [])].find((button) =>
      button.textContent?.includes('recovery code'),
    );
    switchButton?.focus();
    await sendKeys({ press: 'Enter' });
    await until(
      () => secondStep(el)?.querySelector('label[for=code]')?.textContent === 'Recovery code',
      2000,
      'the recovery form',
    );
    expect(focusedText()).to.equal('input#code');
    secondStep(el)?.querySelector<HTMLButtonElement>('#start-over')?.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => focusedText() === 'input#password', 2000, 'back at the password');
  });

  it('enrols an authenticator app: QR code and key, a first code, ten recovery codes shown once', async () => {
    const { el, backend, history } = await mountConsole({ role: 'tenant_admin', path: '/console/security' });
    const screen = await until(
      () => screenOf(el)?.shadowRoot?.querySelector('#totp-start') && screenOf(el),
      4000,
      'the security page',
    );
    const root = screen.shadowRoot as ShadowRoot;
    expect(root.textContent).to.include('No authenticator app is set up.');
    root.querySelector<HTMLButtonElement>('#totp-start')?.focus();
    await sendKeys({ press: 'Enter' });
    const qr = await until(() => root.querySelector('svg.qr'), 4000, 'the QR code');
    expect(qr.getAttribute('role')).to.equal('img');
    expect(qr.getAttribute('aria-label')).to.equal('QR code for your authenticator app');
    expect(qr.querySelector('path')?.getAttribute('d')).to.match(/^M\d/);
    const key = root.querySelector('idv-copy-field') as HTMLElement & { value: string };
    expect(key.value).to.equal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    await until(() => focusedText() === 'input#totp-code', 2000, 'focus in the code field');
    await sendKeys({ type: TOTP_CODE });
    await sendKeys({ press: 'Enter' });
    const codes = await until(
      () =>
        root.querySelectorAll('#recovery-codes li').length === 10 &&
        root.querySelectorAll('#recovery-codes li'),
      4000,
      'the codes',
    );
    expect(codes[0]?.textContent).to.equal('A2345-6789A');
    await until(() => focusedText() === 'h2#codes-heading', 2000, 'focus on the codes');
    expect(backend.secondFactors.totp).to.equal(true);
    const stored = JSON.parse(sessionStorage.getItem('idv-console-token') ?? '{}');
    expect(backend.tokens.get(stored.token), 'the exchanged token is the one kept').to.equal('tenant_admin');
    await settled(el);
    await expect(el, 'the recovery codes as shown').to.be.accessible();
    root.querySelector<HTMLButtonElement>('#codes-saved')?.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => !root.querySelector('#recovery-codes'), 2000, 'the codes gone');
    expect(root.textContent).to.include('An authenticator app is set up.');
    expect(root.textContent).to.include('Unused recovery codes: 10');
    expect(history.href, 'enrolling keeps the user on the page').to.equal('/console/security');
  });

  it('the header links to the security page', async () => {
    const { el, history } = await mountConsole({ role: 'viewer', path: '/console/sessions' });
    const link = el.shadowRoot?.querySelector<HTMLAnchorElement>('a[href="/console/security"]');
    expect(link?.textContent?.trim()).to.equal('Security');
    link?.click();
    await until(() => history.href === '/console/security', 4000, 'the security page');
    await settled(el);
  });

  for (const variant of [
    { locale: 'en', theme: 'light' },
    { locale: 'en', theme: 'dark' },
    { locale: 'de', theme: 'light' },
    { locale: 'ar', theme: 'light' },
  ] as const) {
    it(`passes axe on the security page, idle and setting up (${variant.locale}, ${variant.theme})`, async function () {
      this.timeout(20_000);
      const { el } = await mountConsole({ role: 'tenant_admin', path: '/console/security', ...variant });
      const screen = await until(
        () => screenOf(el)?.shadowRoot?.querySelector('#totp-start') && screenOf(el),
        4000,
        'the security page',
      );
      await settled(el);
      await expect(el).to.be.accessible();
      screen.shadowRoot?.querySelector<HTMLButtonElement>('#totp-start')?.click();
      await until(() => screen.shadowRoot?.querySelector('svg.qr'), 4000, 'the QR code');
      await settled(el);
      await expect(el).to.be.accessible();
    });

    it(`passes axe on the login's second step (${variant.locale}, ${variant.theme})`, async function () {
      this.timeout(20_000);
      const backend = new FakeConsoleBackend();
      backend.secondFactorEmails.add(ADMIN);
      const login = await mountConsole({ path: '/console/login', backend, ...variant });
      const form = screenOf(login.el)?.shadowRoot;
      (form?.querySelector('#email') as HTMLInputElement).value = ADMIN;
      (form?.querySelector('#password') as HTMLInputElement).value = PASSWORD;
      form?.querySelector<HTMLButtonElement>('button[type=submit]')?.click();
      await until(() => secondStep(login.el)?.querySelector('#code'), 4000, 'the second step');
      await settled(login.el);
      await expect(login.el).to.be.accessible();
    });
  }
});
