import type { ChromeLauncher } from '@web/test-runner-chrome';
import type { TestRunnerPlugin } from '@web/test-runner';
import { type E2eServer, startE2eServer } from './e2e-server.ts';
import { registerWebhook, submitSandboxSession, waitForStatus } from './sandbox-tenant.ts';
import {
  type CheckedDelivery,
  checkDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from './webhook-receiver.ts';

/**
 * Server commands of the console's end-to-end test (test/browser/console/e2e-review.test.ts), called
 * from the page with `executeServerCommand(name, payload)`. The console must run on the real server's
 * origin, under its real CSP and headers, which the test page (on web-test-runner's origin) cannot
 * script: so the console gets a tab of its own in the same Chromium, driven through the DevTools protocol
 * (web-test-runner's own puppeteer), and the test page says what to do there.
 *
 * - `idv-console-e2e:prepare` → `Prepared`: the real server (IDV_WEBHOOK_ALLOW_LOOPBACK=true), the
 *   independent webhook receiver registered for the demo tenant, and a sandbox session with a passport
 *   photo that the review decided `review_required`. Started once; asking again waits for the same one.
 * - `idv-console-e2e:open` `{path}`: opens the console tab (a fresh browser context) at `path`.
 * - `idv-console-e2e:type` `{selector, text}`, `:click` `{selector}`, `:select` `{selector, value}`,
 *   `:press` `{key}`: real input events in that tab. Selectors may pierce shadow roots with `>>>`.
 * - `idv-console-e2e:wait` `{script, arg, timeout_ms}` → `{value}` or `{timed_out: true, showing}`: evaluates
 *   the function source `script` with `arg` in the tab every 100 ms until it returns something truthy;
 *   `showing` is the tab's URL and visible text when it gave up.
 * - `idv-console-e2e:session` `{session_id}` → the session as the tenant's key reads it.
 * - `idv-console-e2e:deliveries` → every delivery the receiver got, checked with the endpoint's secret.
 * - `idv-console-e2e:page-problems` → uncaught errors and CSP violations the console tab reported.
 * - `idv-console-e2e:review-session` `{reference}` → `{sessionId, uploadId}`: another sandbox session in
 *   `review_required`, one per reference (asking again waits for the same one), for a test that must
 *   not share the prepared session with another engine or test.
 * - `idv-console-e2e:fetch` `{path, method, headers, body}` → `{status, headers, body_base64}`: one HTTP
 *   request to the real server, for a console mounted in the test page itself (any engine, where the
 *   console tab above needs Chromium): its `fetchImpl` goes through here (test/browser/console/
 *   support/server-fetch.ts), so every API call is the real server's answer.
 * - `idv-console-e2e:stop`: closes the console tab. The server and the receiver stay until the run ends:
 *   the tests of other engines (e2e-team-review.test.ts) may still be using them.
 */
export type ConsoleE2eCommand =
  | 'idv-console-e2e:prepare'
  | 'idv-console-e2e:open'
  | 'idv-console-e2e:type'
  | 'idv-console-e2e:click'
  | 'idv-console-e2e:select'
  | 'idv-console-e2e:press'
  | 'idv-console-e2e:wait'
  | 'idv-console-e2e:session'
  | 'idv-console-e2e:deliveries'
  | 'idv-console-e2e:page-problems'
  | 'idv-console-e2e:fetch'
  | 'idv-console-e2e:review-session'
  | 'idv-console-e2e:stop';

export interface Prepared {
  origin: string;
  sessionId: string;
  reference: string;
  uploadId: string;
  /** The demo admin's console login (a throwaway development server's). */
  email: string;
  password: string;
  /** `GET /v1/sessions/:id/evidence/:upload_id` without any credential: must not be 200. */
  evidenceWithoutTokenStatus: number;
}

interface Payload {
  path?: string;
  selector?: string;
  text?: string;
  value?: string;
  key?: string;
  script?: string;
  arg?: unknown;
  timeout_ms?: number;
  session_id?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  reference?: string;
}

/** What `idv-console-e2e:fetch` answers: the real server's response, its body as base64. */
export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body_base64: string;
}

type Page = ReturnType<ChromeLauncher['getPage']>;
type BrowserContext = ReturnType<Page['browserContext']>;

interface World {
  server: E2eServer;
  receiver: WebhookReceiver;
  secret: string;
  prepared: Prepared;
}

/** Each command answers well within the page's 20 s limit for one server command. */
const MAX_WAIT_MS = 15_000;
/** The review worker runs in the server process: on a busy 2-core runner it may take a while. */
const DECISION_TIMEOUT_MS = 120_000;

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === null || value === '') throw new Error(`payload.${name} is required`);
  return value;
}

async function prepare(): Promise<World> {
  // Development mode already lets webhooks reach loopback; the flag is what a production-mode server
  // would need, set here so the test keeps working if the e2e server's mode ever changes.
  const server = await startE2eServer({ env: { IDV_WEBHOOK_ALLOW_LOOPBACK: 'true' } });
  let receiver: WebhookReceiver | null = null;
  try {
    receiver = await startWebhookReceiver();
    const { secret } = await registerWebhook(server.baseUrl, server.sandboxKey, receiver.url);
    const reference = `console-e2e-${crypto.randomUUID()}`;
    const submitted = await submitSandboxSession(server.baseUrl, server.sandboxKey, {
      outcome: 'review_required',
      reference,
    });
    await waitForStatus(
      server.baseUrl,
      server.sandboxKey,
      submitted.sessionId,
      'review_required',
      DECISION_TIMEOUT_MS,
    );
    const unauthenticated = await fetch(
      `${server.baseUrl}/v1/sessions/${submitted.sessionId}/evidence/${submitted.uploadId}`,
    );
    await unauthenticated.arrayBuffer();
    return {
      server,
      receiver,
      secret,
      prepared: {
        origin: server.baseUrl,
        sessionId: submitted.sessionId,
        reference,
        uploadId: submitted.uploadId,
        email: server.consoleLogin.email,
        password: server.consoleLogin.password,
        evidenceWithoutTokenStatus: unauthenticated.status,
      },
    };
  } catch (error) {
    await receiver?.close();
    await server.close();
    throw error;
  }
}

/** What the console tab shows (its URL and the start of its main text), for a wait's failure message. */
async function showing(page: Page): Promise<string> {
  const text: unknown = await page.evaluate(
    `document.querySelector('idv-console')?.shadowRoot?.querySelector('main')?.innerText ?? ''`,
  );
  return `${page.url()}: ${String(text).replace(/\s+/g, ' ').slice(0, 300)}`;
}

/**
 * The web-test-runner plugin of the console's end-to-end test: starts the real server and the webhook
 * receiver on the first `prepare`, drives the console tab, and stops everything on `stop` or when the
 * test run ends.
 *
 * @example
 *   // web-test-runner.config.mjs
 *   plugins: [consoleE2ePlugin()]
 */
export function consoleE2ePlugin(): TestRunnerPlugin<Payload> {
  let world: Promise<World> | null = null;
  let context: BrowserContext | null = null;
  let tab: Page | null = null;
  let problems: string[] = [];
  const reviewSessions = new Map<string, Promise<{ sessionId: string; uploadId: string }>>();

  const running = async () => {
    if (!world) throw new Error('idv-console-e2e:prepare first');
    return world;
  };
  const consoleTab = () => {
    if (!tab) throw new Error('idv-console-e2e:open first');
    return tab;
  };
  const element = async (selector: string) => {
    const found = await consoleTab().waitForSelector(selector, { timeout: MAX_WAIT_MS });
    if (!found) throw new Error(`no element matches ${selector}`);
    return found;
  };
  const stop = async () => {
    const current = world;
    world = null;
    reviewSessions.clear();
    await context?.close().catch(() => {});
    context = null;
    tab = null;
    const stopped = await current?.catch(() => null);
    await stopped?.receiver.close();
    await stopped?.server.close();
  };

  return {
    name: 'idv-console-e2e',

    async executeCommand({ command, payload = {}, session }) {
      switch (command as ConsoleE2eCommand) {
        case 'idv-console-e2e:prepare':
          world ??= prepare();
          return (await world).prepared;
        case 'idv-console-e2e:open': {
          const { server } = await running();
          if (!tab) {
            if (session.browser.type !== 'puppeteer') throw new Error('the console e2e test needs Chromium');
            const testPage = (session.browser as ChromeLauncher).getPage(session.id);
            // Its own context: no storage shared with the test page, closed as a whole at the end.
            context = await testPage.browser().createBrowserContext();
            tab = await context.newPage();
            problems = [];
            tab.on('pageerror', (error) => problems.push(`uncaught: ${String(error)}`));
            tab.on('console', (message) => {
              if (/Content Security Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
            });
          }
          await tab.goto(`${server.baseUrl}${required(payload.path, 'path')}`, {
            waitUntil: 'load',
            timeout: MAX_WAIT_MS,
          });
          return true;
        }
        case 'idv-console-e2e:type':
          await (await element(required(payload.selector, 'selector'))).type(required(payload.text, 'text'));
          return true;
        case 'idv-console-e2e:click':
          await (await element(required(payload.selector, 'selector'))).click();
          return true;
        case 'idv-console-e2e:select':
          await (await element(required(payload.selector, 'selector'))).select(
            required(payload.value, 'value'),
          );
          return true;
        case 'idv-console-e2e:press':
          await consoleTab().keyboard.press(required(payload.key, 'key') as never);
          return true;
        case 'idv-console-e2e:wait': {
          // Polled from here with Runtime.evaluate, which the console's CSP (no 'unsafe-eval') does not
          // govern; puppeteer's waitForFunction would build a Function inside the page, which it does.
          const expression = `(${required(payload.script, 'script')})(${JSON.stringify(payload.arg ?? null)})`;
          const deadline = Date.now() + Math.min(payload.timeout_ms ?? MAX_WAIT_MS, MAX_WAIT_MS);
          for (;;) {
            const value: unknown = await consoleTab().evaluate(expression);
            if (value) return { value };
            if (Date.now() >= deadline) return { timed_out: true, showing: await showing(consoleTab()) };
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        case 'idv-console-e2e:session': {
          const { server } = await running();
          const id = encodeURIComponent(required(payload.session_id, 'session_id'));
          const response = await fetch(`${server.baseUrl}/v1/sessions/${id}`, {
            headers: { 'x-api-key': server.sandboxKey },
          });
          return { status: response.status, body: await response.json() };
        }
        case 'idv-console-e2e:deliveries': {
          const { receiver, secret } = await running();
          return receiver.deliveries().map((delivery): CheckedDelivery => checkDelivery(secret, delivery));
        }
        case 'idv-console-e2e:review-session': {
          const { server } = await running();
          const reference = required(payload.reference, 'reference');
          let made = reviewSessions.get(reference);
          if (!made) {
            made = (async () => {
              const submitted = await submitSandboxSession(server.baseUrl, server.sandboxKey, {
                outcome: 'review_required',
                reference,
              });
              await waitForStatus(
                server.baseUrl,
                server.sandboxKey,
                submitted.sessionId,
                'review_required',
                DECISION_TIMEOUT_MS,
              );
              return { sessionId: submitted.sessionId, uploadId: submitted.uploadId };
            })();
            reviewSessions.set(reference, made);
          }
          return await made;
        }
        case 'idv-console-e2e:fetch': {
          const { server } = await running();
          const path = required(payload.path, 'path');
          if (!path.startsWith('/v1/')) throw new Error('idv-console-e2e:fetch reaches /v1/ only');
          const response = await fetch(`${server.baseUrl}${path}`, {
            method: payload.method ?? 'GET',
            headers: payload.headers ?? {},
            ...(payload.body !== undefined ? { body: payload.body } : {}),
            signal: AbortSignal.timeout(MAX_WAIT_MS),
          });
          const answer: ProxiedResponse = {
            status: response.status,
            headers: Object.fromEntries(response.headers),
            body_base64: Buffer.from(await response.arrayBuffer()).toString('base64'),
          };
          return answer;
        }
        case 'idv-console-e2e:page-problems':
          return [...problems];
        case 'idv-console-e2e:stop':
          await context?.close().catch(() => {});
          context = null;
          tab = null;
          return true;
        default:
          // Not ours: web-test-runner asks the next plugin.
          return undefined;
      }
    },

    async serverStop() {
      await stop();
    },
  };
}
