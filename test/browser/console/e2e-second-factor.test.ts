/**
 * Staff second factors in the console end to end, against the real server (server/node.ts on a fresh
 * data dir, test/support-server/second-factor-e2e-plugin.ts), in Chromium: the demo admin logs in with
 * the password, opens Security, enrols an authenticator app (the secret read off the page, the code
 * computed in Node as an app would), saves the ten recovery codes, adds a passkey on Chromium's virtual
 * authenticator (the DevTools protocol's WebAuthn domain: real key pairs and signatures), logs out, and
 * logs in twice more: with password and TOTP code, then with password and passkey. Every step by the
 * keyboard or a click in the console's own tab, under the server's CSP; no error or CSP report allowed.
 */
import { expect } from '@open-wc/testing';
import { chromiumOnly } from '../support/engine.ts';
import type {
  SecondFactorE2eCommand,
  SecondFactorPrepared,
} from '../../support-server/second-factor-e2e-plugin.ts';
import { consoleTab, STEP_MS } from './support/console-tab.ts';

const SHELL = 'idv-console';
const LOGIN = `${SHELL} >>> idv-login-screen`;
const STEP = `${LOGIN} >>> idv-second-factor-step`;
const SECURITY = `${SHELL} >>> idv-security-screen`;
const SERVER_READY_MS = 240_000;

const { command, inConsole } = consoleTab<SecondFactorE2eCommand>('idv-2fa-e2e:wait');

/** An authenticator app's code for the first 30 s step after `afterStep` (waits for it). */
async function totp(secret: string, afterStep = -1): Promise<{ code: string; step: number }> {
  for (;;) {
    const answer = await command<{ code?: string; step?: number }>('idv-2fa-e2e:totp', {
      secret,
      after_step: afterStep,
    });
    if (answer.code && answer.step !== undefined) return { code: answer.code, step: answer.step };
  }
}

async function passwordStep(prepared: SecondFactorPrepared): Promise<void> {
  await inConsole('the login form', (_, deep) => !!deep(['idv-console', 'idv-login-screen', '#email']), null);
  await command('idv-2fa-e2e:type', { selector: `${LOGIN} >>> #email`, text: prepared.email });
  await command('idv-2fa-e2e:type', { selector: `${LOGIN} >>> #password`, text: prepared.password });
  await command('idv-2fa-e2e:press', { key: 'Enter' });
}

async function signedIn(): Promise<string> {
  return inConsole(
    'the signed-in shell',
    (_, deep) => (deep(['idv-console', '#environment']) ? location.pathname : null),
    null,
  );
}

async function logOut(): Promise<void> {
  await command('idv-2fa-e2e:click', { selector: `${SHELL} >>> .user button` });
  await inConsole('the login page', () => location.pathname === '/console/login', null);
}

describe('the console against the real server: second factors', () => {
  let prepared: SecondFactorPrepared;

  before(async function () {
    chromiumOnly(
      this,
      'the console tab and its virtual authenticator are driven through the DevTools protocol',
    );
    this.timeout(SERVER_READY_MS + 10_000);
    prepared = await command<SecondFactorPrepared>('idv-2fa-e2e:prepare', {}, SERVER_READY_MS);
  });

  after(async function () {
    this.timeout(60_000);
    await command('idv-2fa-e2e:stop', {}, 60_000);
  });

  it('enrols TOTP and a passkey, then logs in with each', async function () {
    this.timeout(12 * STEP_MS);
    await command('idv-2fa-e2e:open', { path: '/console/login' });
    await command('idv-2fa-e2e:authenticator');
    await passwordStep(prepared);
    expect(await signedIn(), 'no second factor yet: the password alone logs in').to.equal(
      '/console/dashboard',
    );

    // Security, from the header link; set up the authenticator app.
    await command('idv-2fa-e2e:click', { selector: `${SHELL} >>> a[href="/console/security"]` });
    await inConsole(
      'the security page',
      (_, deep) => !!deep(['idv-console', 'idv-security-screen', '#totp-start']),
      null,
    );
    await command('idv-2fa-e2e:click', { selector: `${SECURITY} >>> #totp-start` });
    const secret = await inConsole(
      'the QR code and the setup key',
      (_, deep) => {
        const screen = deep(['idv-console', 'idv-security-screen']);
        const qr = screen?.shadowRoot?.querySelector('svg.qr[role=img] path');
        const field = screen?.shadowRoot?.querySelector('idv-copy-field') as
          | (Element & { value?: string })
          | null;
        return qr?.getAttribute('d') && field?.value ? field.value : null;
      },
      null,
    );
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    const confirmation = await totp(secret);
    await command('idv-2fa-e2e:type', { selector: `${SECURITY} >>> #totp-code`, text: confirmation.code });
    await command('idv-2fa-e2e:press', { key: 'Enter' });
    const codes = await inConsole(
      'the recovery codes, shown once',
      (_, deep) => {
        const list = deep(['idv-console', 'idv-security-screen', '#recovery-codes']);
        const items = [...(list?.querySelectorAll('li') ?? [])].map((li) => li.textContent?.trim() ?? '');
        return items.length > 0 ? items : null;
      },
      null,
    );
    expect(codes).to.have.length(10);
    for (const code of codes) expect(code).to.match(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    await command('idv-2fa-e2e:click', { selector: `${SECURITY} >>> #codes-saved` });

    // A passkey on the virtual authenticator.
    await command('idv-2fa-e2e:type', { selector: `${SECURITY} >>> #passkey-name`, text: 'Virtual key' });
    await command('idv-2fa-e2e:click', { selector: `${SECURITY} >>> #passkey-add` });
    await inConsole(
      'the new passkey in the list',
      (name, deep) =>
        deep(['idv-console', 'idv-security-screen', '#passkey-list'])?.textContent?.includes(name),
      'Virtual key',
    );
    const created = await command<{ rpId: string; signCount: number }[]>('idv-2fa-e2e:credentials');
    expect(created).to.have.length(1);
    expect(created[0]?.rpId).to.equal(new URL(prepared.origin).hostname);

    // Log out; password, then the authenticator app's code of a later step (the confirming one is spent).
    await logOut();
    await passwordStep(prepared);
    await inConsole(
      'the second step',
      (_, deep) => !!deep(['idv-console', 'idv-login-screen', 'idv-second-factor-step', '#code']),
      null,
    );
    const later = await totp(secret, confirmation.step);
    await command('idv-2fa-e2e:type', { selector: `${STEP} >>> #code`, text: later.code });
    await command('idv-2fa-e2e:press', { key: 'Enter' });
    expect(await signedIn(), 'password and TOTP code').to.equal('/console/dashboard');

    // Log out; password, then the passkey.
    await logOut();
    await passwordStep(prepared);
    await inConsole(
      'the passkey button',
      (_, deep) => !!deep(['idv-console', 'idv-login-screen', 'idv-second-factor-step', '#use-passkey']),
      null,
    );
    await command('idv-2fa-e2e:click', { selector: `${STEP} >>> #use-passkey` });
    expect(await signedIn(), 'password and passkey').to.equal('/console/dashboard');
    const used = await command<{ signCount: number }[]>('idv-2fa-e2e:credentials');
    expect(used[0]?.signCount, 'the authenticator signed the login').to.be.greaterThan(
      created[0]?.signCount ?? 0,
    );

    const problems = await command<string[]>('idv-2fa-e2e:page-problems');
    expect(problems, 'uncaught errors or CSP violations in the console tab').to.deep.equal([]);
  });
});
