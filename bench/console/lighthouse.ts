/**
 * Lighthouse on the console's sessions page (`npm run bench:lighthouse:console`, after `npm run build`
 * or `npm run build:console`; not part of `npm test`): a real server (server/node.ts on a temporary
 * embedded database, as `npm start` runs it), two dozen sandbox sessions in every state created with the
 * tenant's key, the demo admin logged in through `POST /v1/console/login`, then `/console/sessions`
 * audited with Lighthouse's default mobile settings (Moto G-class screen, simulated slow 4G, 4× CPU
 * slowdown) and its desktop settings, in the machine's Chromium.
 *
 * The page is opened as a logged-in tab: the token goes where the console keeps it after a login (its
 * sessionStorage, src/console/auth/token-store.ts), with the sandbox environment chosen, written before
 * the console's script runs on each navigation. Nothing else is changed in the page.
 *
 * Prints, per form factor, the performance / accessibility / best-practices scores against the issue's
 * targets (≥ 90, 100, 100), the main metrics and every audit that cost points. A bench, not a test: it
 * asserts nothing. `--runs=N` loads the page N times per form factor and reports the median run.
 *
 * @example
 *   npm run build:console && node bench/console/lighthouse.ts --runs=3 [--page=/console/reviews]
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Config, desktopConfig, type Flags, type Result } from 'lighthouse';
import { CHROMIUM_FLAGS, findChromium } from '../../test/support-server/chromium.ts';
import { startE2eServer } from '../../test/support-server/e2e-server.ts';
import { consoleLogin } from '../../test/support-server/sandbox-tenant.ts';
import { TenantBackend } from '../../test/support-server/tenant-backend.ts';
import {
  auditOnce,
  chromeLauncher,
  type LighthousePage,
  medianRun,
  puppeteerConnect,
  report,
  runsArgument,
  score,
} from '../support/lighthouse.ts';

const root = resolve(import.meta.dirname, '../..');

const TARGETS: Record<string, number> = { performance: 90, accessibility: 100, 'best-practices': 100 };

/** The pages this bench can audit: the screen that shows and the read that proves the user was logged in. */
const PAGES: Record<string, { screen: string; read: RegExp }> = {
  '/console/sessions': { screen: 'idv-sessions-screen', read: /\/v1\/sessions\?/ },
  '/console/reviews': { screen: 'idv-review-screen', read: /\/v1\/review-queue/ },
};
/** `--page=/console/reviews` audits the review workbench; the sessions list by default. */
const PAGE =
  process.argv.find((arg) => arg.startsWith('--page='))?.slice('--page='.length) ?? '/console/sessions';
const AUDITED =
  PAGES[PAGE] ??
  (() => {
    throw new Error(`--page must be one of ${Object.keys(PAGES).join(', ')}`);
  })();

/** What each bench session is taken to (`POST /v1/sandbox/sessions/:id/simulate`); null: left created. */
const ACTIONS = [null, 'start', 'approve', 'reject', 'review', 'expire'] as const;
const SESSIONS = 24;

/** Sessions in every state, more than one page of the list (20). */
async function seedSessions(tenant: TenantBackend): Promise<void> {
  for (let i = 0; i < SESSIONS; i++) {
    const session = await tenant.createSession({
      country: ['FRA', 'DEU', 'NLD', 'ESP'][i % 4],
      flow: i % 3 === 0 ? 'business' : 'user',
      tier: ['tier1', 'tier2', 'tier3'][i % 3],
      external_user_reference: `bench-user-${i}`,
    });
    const action = ACTIONS[i % ACTIONS.length];
    if (action) {
      const answer = await tenant.simulate(session.session_id, action);
      if (answer.status !== 200) throw new Error(`simulate ${action} answered ${answer.status}`);
    }
  }
}

/** Before any script of a console page runs: the token as a login leaves it, and the sandbox chosen. */
function signIn(origin: string, token: string, expiresAt: number): void {
  if (location.origin !== origin) return;
  sessionStorage.setItem('idv-console-token', JSON.stringify({ token, expiresAt }));
  sessionStorage.setItem('idv-console-environment', 'sandbox');
}

/**
 * Whether the audited load was the logged-in sessions page: it read `GET /v1/sessions` successfully. A
 * console without a valid token shows the login instead, and its scores would say nothing about this page.
 */
function auditedLoggedIn(lhr: Result): boolean {
  const items =
    (lhr.audits['network-requests']?.details as { items?: Array<{ url?: string; statusCode?: number }> })
      ?.items ?? [];
  return items.some((item) => AUDITED.read.test(item.url ?? '') && item.statusCode === 200);
}

function print(lhr: Result | undefined): void {
  if (!lhr) return;
  report(lhr, TARGETS);
  if (!auditedLoggedIn(lhr)) {
    console.log('\nINCONCLUSIVE: the audited page never read its list (not logged in?)');
    process.exitCode = 1;
  }
}

async function auditFormFactor(
  newPage: () => Promise<LighthousePage>,
  url: string,
  sign: (page: LighthousePage) => Promise<unknown>,
  config: Config | undefined,
  flags: Flags,
  runs: number,
): Promise<Result | undefined> {
  const results: Result[] = [];
  for (let run = 1; run <= runs; run++) {
    // A fresh tab per run: sessionStorage is per tab, and Lighthouse clears the origin's other storage
    // and the HTTP cache itself, so every run is a first visit of a logged-in user.
    const page = await newPage();
    try {
      await sign(page);
      const lhr = await auditOnce(url, flags, config, page);
      results.push(lhr);
      if (runs > 1) console.log(`run ${run}: performance ${score(lhr, 'performance')}`);
    } finally {
      await page.close();
    }
  }
  return medianRun(results);
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'server/dist/web/console/index.html'))) {
    throw new Error('the console is not built: run `npm run build:console` (or `npm run build`) first');
  }
  const runs = runsArgument();
  const server = await startE2eServer();
  const launch = await chromeLauncher();
  const chrome = await launch({ chromePath: findChromium(), chromeFlags: CHROMIUM_FLAGS });
  const browser = await (await puppeteerConnect())({
    browserURL: `http://127.0.0.1:${chrome.port}`,
    defaultViewport: null,
  });
  try {
    await seedSessions(new TenantBackend(server.baseUrl, server.sandboxKey));
    const login = await consoleLogin(server.baseUrl, server.consoleLogin);
    const origin = new URL(server.baseUrl).origin;
    const expiresAt = Date.now() + login.expiresIn * 1000;
    const sign = (page: LighthousePage) =>
      page.evaluateOnNewDocument(signIn, origin, login.accessToken, expiresAt);
    const url = `${server.baseUrl}${PAGE}`;

    // The server reads each built file from disk once, then serves it from memory (node-console-assets.ts):
    // one load first, so the audits measure a server that has been up a while, not a cold disk read.
    const warm = await browser.newPage();
    await sign(warm);
    await warm.goto(url, { waitUntil: 'networkidle0' });
    const shown = await warm.evaluate(
      (tag) => document.querySelector('idv-console')?.shadowRoot?.querySelector(tag) != null,
      AUDITED.screen,
    );
    await warm.close();
    if (!shown) throw new Error(`the console did not open ${PAGE} for the logged-in user`);

    const flags: Flags = {
      output: 'json',
      logLevel: (process.env.LH_LOG ?? 'error') as Flags['logLevel'],
      onlyCategories: Object.keys(TARGETS),
    };
    const newPage = () => browser.newPage();
    const mobile = await auditFormFactor(newPage, url, sign, undefined, flags, runs);
    print(mobile);
    const desktop = await auditFormFactor(newPage, url, sign, desktopConfig, flags, runs);
    print(desktop);
  } finally {
    await browser.disconnect();
    await chrome.kill();
    await server.close();
  }
}

await main();
