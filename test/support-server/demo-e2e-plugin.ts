import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestRunnerPlugin } from '@web/test-runner';
import type { ChromeLauncher } from '@web/test-runner-chrome';
import sharp from 'sharp';
import type { ViteDevServer } from 'vite';
import { freePort } from '../node/server/server-process.ts';
import { type E2eServer, startE2eServer } from './e2e-server.ts';

/**
 * Server commands of the demo shop's end-to-end test (test/browser/e2e/demo-shop.test.ts), called from
 * the page with `executeServerCommand(name, payload)`. The demo must run on its own origin (the real
 * server's `/demo/`, or the offline Vite server), under its own CSP, which the test page cannot script:
 * so it gets a tab of its own in the same Chromium (the same fake camera), driven through the DevTools
 * protocol, and the test page says what to do there.
 *
 * - `idv-demo-e2e:start` `{target}` → `{origin, pagePath}`: `server` starts `npm start`'s entry
 *   (server/node.ts, development mode, fresh data directory: the demo shop with its backend and webhook
 *   endpoint); `offline` starts `npm run demo:offline`'s Vite server (the mock Service Worker). Once each.
 * - `idv-demo-e2e:open` `{target, path}`: opens the demo tab (a fresh browser context) at `path`.
 * - `idv-demo-e2e:eval` `{script, arg}` → `{value}`: evaluates the function source `script` with `arg`
 *   in the tab (Runtime.evaluate, which the page's CSP does not govern), `null` while it navigates.
 * - `idv-demo-e2e:upload` `{script, fixture, variant}`: evaluates `script` to a file input in the tab and
 *   chooses the fixture (a path under test/fixtures/vision/), re-encoded as JPEG at a quality depending
 *   on `variant`, as a second phone photo of the same document would be.
 * - `idv-demo-e2e:page-problems` → the uncaught errors and CSP violations the tab reported.
 * - `idv-demo-e2e:forged-webhook` → the status the shop backend answers an unsigned "approval".
 * - `idv-demo-e2e:decision` `{target, sessionId?}` → the session's (unset: the demo tenant's newest) decision with its reasons and checks,
 *   from `GET /v1/sessions/:id/result` with the demo tenant's sandbox key, and each liveness attempt's
 *   verdict from the server's log (`server` only; null offline): why the models refused the visitor.
 * - `idv-demo-e2e:stop`: closes the tab and everything started (also done when the run ends).
 */
export type DemoE2eCommand =
  | 'idv-demo-e2e:start'
  | 'idv-demo-e2e:open'
  | 'idv-demo-e2e:eval'
  | 'idv-demo-e2e:upload'
  | 'idv-demo-e2e:page-problems'
  | 'idv-demo-e2e:forged-webhook'
  | 'idv-demo-e2e:decision'
  | 'idv-demo-e2e:stop';

export type DemoTarget = 'server' | 'offline';

export interface DemoStarted {
  origin: string;
  /** Where the shop's page is on that origin. */
  pagePath: string;
  /** Where its backend is (the webhook endpoint is `${backendPath}webhooks/id-verify`). */
  backendPath: string;
}

interface Payload {
  target?: DemoTarget;
  sessionId?: string;
  path?: string;
  script?: string;
  arg?: unknown;
  fixture?: string;
  variant?: number;
}

type Page = ReturnType<ChromeLauncher['getPage']>;
type BrowserContext = ReturnType<Page['browserContext']>;

interface Running {
  started: DemoStarted;
  /** The demo tenant's sandbox key, where the test can have it (the real server). */
  sandboxKey?: string;
  /** The server's JSON log records (the real server). */
  records?: () => Record<string, unknown>[];
  close(): Promise<void>;
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = resolve(REPO, 'test/fixtures/vision');
/** Each command answers well within the page's 20 s limit for one server command. */
const NAVIGATION_MS = 15_000;

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === null || value === '') throw new Error(`payload.${name} is required`);
  return value;
}

async function startServer(): Promise<Running> {
  const server: E2eServer = await startE2eServer();
  try {
    const page = await fetch(`${server.baseUrl}/demo/`);
    const text = await page.text();
    if (page.status !== 200) throw new Error(`GET /demo/ answered ${page.status}: ${text.slice(0, 200)}`);
    if (!/Demo shop:\s+http:\/\/[^\s]+\/demo\/\n/.test(server.output())) {
      throw new Error(`the banner does not print the demo shop's URL:\n${server.output()}`);
    }
  } catch (error) {
    await server.close();
    throw new Error(`the demo is not served (run \`npm run build\` first): ${String(error)}`);
  }
  return {
    started: { origin: server.baseUrl, pagePath: '/demo/', backendPath: '/demo/tenant/' },
    sandboxKey: server.sandboxKey,
    records: () => server.records(),
    close: () => server.close(),
  };
}

async function startOffline(): Promise<Running> {
  const { createServer } = await import('vite');
  const port = await freePort();
  const vite: ViteDevServer = await createServer({
    configFile: join(REPO, 'demo/vite.config.ts'),
    server: { port, strictPort: true, host: '127.0.0.1' },
    logLevel: 'warn',
    clearScreen: false,
  });
  await vite.listen();
  return {
    started: { origin: `http://127.0.0.1:${port}`, pagePath: '/', backendPath: '/tenant/' },
    close: () => vite.close(),
  };
}

/**
 * The web-test-runner plugin of the demo's end-to-end test: starts the real server or the offline Vite
 * server on the first `start`, drives the demo tab, stops everything on `stop` or when the run ends.
 *
 * @example
 *   // web-test-runner.config.mjs
 *   plugins: [demoE2ePlugin()]
 */
export function demoE2ePlugin(): TestRunnerPlugin<Payload> {
  const running = new Map<DemoTarget, Promise<Running>>();
  let context: BrowserContext | null = null;
  let tab: Page | null = null;
  let problems: string[] = [];
  let uploadDir: string | null = null;

  const demoTab = () => {
    if (!tab) throw new Error('idv-demo-e2e:open first');
    return tab;
  };
  const started = async (target: DemoTarget | undefined) => {
    const found = running.get(required(target, 'target'));
    if (!found) throw new Error(`idv-demo-e2e:start ${target} first`);
    return (await found).started;
  };
  const closeTab = async () => {
    await context?.close().catch(() => {});
    context = null;
    tab = null;
  };
  /** The tab being opened (see `idv-demo-e2e:open`). */
  let opening: { url: string; settled: boolean; done: Promise<void> } | null = null;
  /** A new tab in a context of its own (no storage shared with the test page or an earlier run) at `url`. */
  const openTab = async (testPage: Page, url: string) => {
    await closeTab();
    context = await testPage.browser().createBrowserContext();
    tab = await context.newPage();
    problems = [];
    tab.on('pageerror', (error) => problems.push(`uncaught: ${String(error)}`));
    tab.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
    });
    // A cold Vite server bundles the dependencies on the first request and may take longer than a
    // command may: the page goes on loading, and the test's own deadline covers it.
    await tab.goto(url, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_MS }).catch((error: unknown) => {
      if (!/timeout/i.test(String(error))) throw error;
    });
  };
  const stop = async () => {
    await closeTab();
    const all = [...running.values()];
    running.clear();
    for (const one of all) await (await one.catch(() => null))?.close();
    if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
    uploadDir = null;
  };

  return {
    name: 'idv-demo-e2e',

    async executeCommand({ command, payload = {}, session }) {
      switch (command as DemoE2eCommand) {
        case 'idv-demo-e2e:start': {
          const target = required(payload.target, 'target');
          if (!running.has(target)) {
            const starting = target === 'server' ? startServer() : startOffline();
            running.set(target, starting);
            starting.catch(() => running.delete(target));
          }
          return (await running.get(target))?.started;
        }
        case 'idv-demo-e2e:open': {
          const { origin } = await started(payload.target);
          const url = `${origin}${required(payload.path, 'path')}`;
          if (session.browser.type !== 'puppeteer') throw new Error('the demo e2e test needs Chromium');
          // The page asks again when it gave up on an answer (20 s): the retry waits for the same opening
          // instead of closing the tab and starting over, which on a loaded runner never got past a cold
          // Vite server's bundling (CI: three tries of 20 s, each restarting the navigation).
          if (!opening || opening.settled || opening.url !== url) {
            const entry = {
              url,
              settled: false,
              done: openTab((session.browser as ChromeLauncher).getPage(session.id), url),
            };
            opening = entry;
            entry.done.then(
              () => (entry.settled = true),
              () => (entry.settled = true),
            );
          }
          await opening.done;
          return true;
        }
        case 'idv-demo-e2e:eval': {
          const expression = `(${required(payload.script, 'script')})(${JSON.stringify(payload.arg ?? null)})`;
          try {
            return { value: await demoTab().evaluate(expression) };
          } catch (error) {
            // A navigation (the redirect to the hosted page and back) destroys the context: ask again.
            if (/context was destroyed|navigat|detached/i.test(String(error))) return { value: null };
            throw error;
          }
        }
        case 'idv-demo-e2e:upload': {
          const fixture = resolve(FIXTURES, required(payload.fixture, 'fixture'));
          if (!fixture.startsWith(`${FIXTURES}/`) || !existsSync(fixture)) {
            throw new Error(`no fixture ${payload.fixture} under test/fixtures/vision/`);
          }
          uploadDir ??= await mkdtemp(join(tmpdir(), 'idv-demo-e2e-'));
          const variant = payload.variant ?? 0;
          const file = join(uploadDir, `photo-${variant}.jpg`);
          await sharp(fixture)
            .jpeg({ quality: 92 - (variant % 10) })
            .toFile(file);
          const handle = await demoTab().evaluateHandle(
            `(${required(payload.script, 'script')})(${JSON.stringify(payload.arg ?? null)})`,
          );
          const input = handle.asElement();
          if (!input) throw new Error('the script found no file input');
          await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
          return true;
        }
        case 'idv-demo-e2e:page-problems':
          return [...problems];
        case 'idv-demo-e2e:decision': {
          const one = await running.get(required(payload.target, 'target'));
          if (!one?.sandboxKey) return null;
          const headers = { 'x-api-key': one.sandboxKey };
          // The embedded widget leaves no session id in the tab: then the demo tenant's newest session.
          const sessionId =
            payload.sessionId ??
            (
              (await (await fetch(`${one.started.origin}/v1/sessions?limit=1`, { headers })).json()) as {
                data?: { session_id: string }[];
              }
            ).data?.[0]?.session_id;
          if (!sessionId) return { error: 'the demo tenant has no session' };
          const id = encodeURIComponent(sessionId);
          const response = await fetch(`${one.started.origin}/v1/sessions/${id}/result`, { headers });
          // Each liveness attempt's verdict is only in the log (the result says "attempts exhausted"):
          // judged by the models, or sent back by a gate before them.
          const liveness = (one.records?.() ?? []).filter(
            (record) =>
              (record['message'] === 'liveness judged' || record['message'] === 'liveness sent back') &&
              record['session_id'] === sessionId,
          );
          return { status: response.status, result: await response.json(), liveness };
        }
        case 'idv-demo-e2e:forged-webhook': {
          const { origin, backendPath } = await started(payload.target);
          const response = await demoTab().evaluate(
            `fetch(${JSON.stringify(`${origin}${backendPath}webhooks/id-verify`)}, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-service-signature': '${'0'.repeat(64)}' },
              body: JSON.stringify({ event: 'session.approved', event_id: 'evt_forged', session_id: 'sess_forged' }),
            }).then((r) => r.status)`,
          );
          return response;
        }
        case 'idv-demo-e2e:stop':
          await stop();
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
