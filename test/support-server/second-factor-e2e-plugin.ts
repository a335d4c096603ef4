import type { ChromeLauncher } from '@web/test-runner-chrome';
import type { TestRunnerPlugin } from '@web/test-runner';
import { fromBase32, totpCode, totpStepAt } from '../../server/features/second-factors/totp.ts';
import { type E2eServer, startE2eServer } from './e2e-server.ts';

/**
 * Server commands of the console's second-factor end-to-end test
 * (test/browser/console/e2e-second-factor.test.ts). As in console-e2e-plugin.ts, the console runs in a
 * tab of its own on the real server's origin, under its real CSP, driven through the DevTools protocol;
 * this tab also gets Chromium's virtual WebAuthn authenticator (the `WebAuthn` CDP domain), so passkeys
 * are created and used by the browser's own WebAuthn stack with real signatures, no human touch.
 *
 * - `idv-2fa-e2e:prepare` → `{origin, email, password}`: the real server (fresh data dir) and its demo admin.
 * - `idv-2fa-e2e:open` `{path}`: opens the console tab (a fresh browser context) at `path`.
 * - `idv-2fa-e2e:type` `{selector, text}`, `:click` `{selector}`, `:press` `{key}`: real input events.
 * - `idv-2fa-e2e:wait` `{script, arg, timeout_ms}` → `{value}` or `{timed_out, showing}`, as in the console plugin.
 * - `idv-2fa-e2e:authenticator` → `{authenticatorId}`: a virtual CTAP2 platform authenticator with
 *   resident keys and user verification, presence simulated, attached to the tab.
 * - `idv-2fa-e2e:credentials` → the authenticator's credentials (`rpId`, `signCount`, …).
 * - `idv-2fa-e2e:totp` `{secret, after_step}` → `{code, step}` of the first step after `after_step` (an
 *   authenticator app's code, computed here; waits for the next 30 s step), or `{waiting: true}`.
 * - `idv-2fa-e2e:page-problems` → uncaught errors and CSP violations of the tab.
 * - `idv-2fa-e2e:stop`: closes the tab and the server (also done when the run ends).
 */
export type SecondFactorE2eCommand =
  | 'idv-2fa-e2e:prepare'
  | 'idv-2fa-e2e:open'
  | 'idv-2fa-e2e:type'
  | 'idv-2fa-e2e:click'
  | 'idv-2fa-e2e:press'
  | 'idv-2fa-e2e:wait'
  | 'idv-2fa-e2e:authenticator'
  | 'idv-2fa-e2e:credentials'
  | 'idv-2fa-e2e:totp'
  | 'idv-2fa-e2e:page-problems'
  | 'idv-2fa-e2e:stop';

export interface SecondFactorPrepared {
  origin: string;
  email: string;
  password: string;
}

interface Payload {
  path?: string;
  selector?: string;
  text?: string;
  key?: string;
  script?: string;
  arg?: unknown;
  timeout_ms?: number;
  secret?: string;
  after_step?: number;
}

type Page = ReturnType<ChromeLauncher['getPage']>;
type BrowserContext = ReturnType<Page['browserContext']>;
type CdpSession = Awaited<ReturnType<Page['createCDPSession']>>;

/** Each command answers well within the page's 20 s limit for one server command. */
const MAX_WAIT_MS = 15_000;

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === null || value === '') throw new Error(`payload.${name} is required`);
  return value;
}

async function showing(page: Page): Promise<string> {
  const text: unknown = await page.evaluate(
    `document.querySelector('idv-console')?.shadowRoot?.querySelector('main')?.innerText ?? ''`,
  );
  return `${page.url()}: ${String(text).replace(/\s+/g, ' ').slice(0, 300)}`;
}

/**
 * The web-test-runner plugin of the second-factor end-to-end test.
 *
 * @example
 *   // web-test-runner.config.mjs
 *   plugins: [secondFactorE2ePlugin()]
 */
export function secondFactorE2ePlugin(): TestRunnerPlugin<Payload> {
  let server: Promise<E2eServer> | null = null;
  let context: BrowserContext | null = null;
  let tab: Page | null = null;
  let cdp: CdpSession | null = null;
  let authenticatorId: string | null = null;
  let problems: string[] = [];

  const consoleTab = () => {
    if (!tab) throw new Error('idv-2fa-e2e:open first');
    return tab;
  };
  const element = async (selector: string) => {
    const found = await consoleTab().waitForSelector(selector, { timeout: MAX_WAIT_MS });
    if (!found) throw new Error(`no element matches ${selector}`);
    return found;
  };
  const stop = async () => {
    const current = server;
    server = null;
    await context?.close().catch(() => {});
    context = null;
    tab = null;
    cdp = null;
    authenticatorId = null;
    const stopped = await current?.catch(() => null);
    await stopped?.close();
  };

  return {
    name: 'idv-2fa-e2e',

    async executeCommand({ command, payload = {}, session }) {
      switch (command as SecondFactorE2eCommand) {
        case 'idv-2fa-e2e:prepare': {
          server ??= startE2eServer();
          const running = await server;
          return {
            origin: running.baseUrl,
            email: running.consoleLogin.email,
            password: running.consoleLogin.password,
          } satisfies SecondFactorPrepared;
        }
        case 'idv-2fa-e2e:open': {
          if (!server) throw new Error('idv-2fa-e2e:prepare first');
          const { baseUrl } = await server;
          if (!tab) {
            if (session.browser.type !== 'puppeteer')
              throw new Error('the second-factor e2e test needs Chromium');
            const testPage = (session.browser as ChromeLauncher).getPage(session.id);
            context = await testPage.browser().createBrowserContext();
            tab = await context.newPage();
            problems = [];
            tab.on('pageerror', (error) => problems.push(`uncaught: ${String(error)}`));
            tab.on('console', (message) => {
              if (/Content Security Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
            });
          }
          await tab.goto(`${baseUrl}${required(payload.path, 'path')}`, {
            waitUntil: 'load',
            timeout: MAX_WAIT_MS,
          });
          return true;
        }
        case 'idv-2fa-e2e:type':
          await (await element(required(payload.selector, 'selector'))).type(required(payload.text, 'text'));
          return true;
        case 'idv-2fa-e2e:click':
          await (await element(required(payload.selector, 'selector'))).click();
          return true;
        case 'idv-2fa-e2e:press':
          await consoleTab().keyboard.press(required(payload.key, 'key') as never);
          return true;
        case 'idv-2fa-e2e:wait': {
          // Runtime.evaluate from here: the console's CSP (no 'unsafe-eval') does not govern it.
          const expression = `(${required(payload.script, 'script')})(${JSON.stringify(payload.arg ?? null)})`;
          const deadline = Date.now() + Math.min(payload.timeout_ms ?? MAX_WAIT_MS, MAX_WAIT_MS);
          for (;;) {
            const value: unknown = await consoleTab().evaluate(expression);
            if (value) return { value };
            if (Date.now() >= deadline) return { timed_out: true, showing: await showing(consoleTab()) };
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        case 'idv-2fa-e2e:authenticator': {
          cdp ??= await consoleTab().createCDPSession();
          await cdp.send('WebAuthn.enable', { enableUI: false });
          const added = await cdp.send('WebAuthn.addVirtualAuthenticator', {
            options: {
              protocol: 'ctap2',
              transport: 'internal',
              hasResidentKey: true,
              hasUserVerification: true,
              isUserVerified: true,
              automaticPresenceSimulation: true,
            },
          });
          authenticatorId = added.authenticatorId;
          return { authenticatorId };
        }
        case 'idv-2fa-e2e:credentials': {
          if (!cdp || !authenticatorId) throw new Error('idv-2fa-e2e:authenticator first');
          const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
          return credentials.map(({ rpId, signCount, isResidentCredential }) => ({
            rpId,
            signCount,
            isResidentCredential,
          }));
        }
        case 'idv-2fa-e2e:totp': {
          const secret = fromBase32(required(payload.secret, 'secret'));
          const after = payload.after_step ?? -1;
          const deadline = Date.now() + MAX_WAIT_MS;
          for (;;) {
            const step = totpStepAt(new Date());
            if (step > after) return { code: await totpCode(secret, step), step };
            if (Date.now() >= deadline) return { waiting: true };
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
        case 'idv-2fa-e2e:page-problems':
          return [...problems];
        case 'idv-2fa-e2e:stop':
          await stop();
          return true;
        default:
          return undefined;
      }
    },

    async serverStop() {
      await stop();
    },
  };
}
