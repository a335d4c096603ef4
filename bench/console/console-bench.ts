/**
 * What the console benches share (lighthouse.ts, layout-shifts.ts): a real server (server/node.ts on a
 * temporary embedded database, as `npm start` runs it), two dozen sandbox sessions in every state created
 * with the tenant's key, the demo admin logged in through `POST /v1/console/login`, and the machine's
 * Chromium with a way to open a console page as a logged-in tab.
 *
 * The page is opened as a logged-in tab: the token goes where the console keeps it after a login (its
 * sessionStorage, server/web/console/auth/token-store.ts), with the sandbox environment chosen, written before
 * the console's script runs on each navigation. Nothing else is changed in the page.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHROMIUM_FLAGS, findChromium } from '../../test/support-server/chromium.ts';
import { type E2eServer, startE2eServer } from '../../test/support-server/e2e-server.ts';
import { consoleLogin } from '../../test/support-server/sandbox-tenant.ts';
import { TenantBackend } from '../../test/support-server/tenant-backend.ts';
import { chromeLauncher, type LighthousePage, puppeteerConnect } from '../support/lighthouse.ts';

const root = resolve(import.meta.dirname, '../..');

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

export interface ConsoleBench {
  server: E2eServer;
  /** A new tab (sessionStorage is per tab: sign each one). */
  newPage(): Promise<LighthousePage>;
  /** Makes `page` a logged-in tab of the seeded tenant's admin for every later navigation. */
  sign(page: LighthousePage): Promise<unknown>;
  close(): Promise<void>;
}

/** The server started and seeded, the admin logged in, Chromium running; `close()` stops all three. */
export async function startConsoleBench(): Promise<ConsoleBench> {
  if (!existsSync(join(root, 'server/dist/web/console/index.html'))) {
    throw new Error('the console is not built: run `npm run build:console` (or `npm run build`) first');
  }
  const server = await startE2eServer();
  const launch = await chromeLauncher();
  const chrome = await launch({ chromePath: findChromium(), chromeFlags: CHROMIUM_FLAGS });
  const browser = await (await puppeteerConnect())({
    browserURL: `http://127.0.0.1:${chrome.port}`,
    defaultViewport: null,
  });
  const close = async () => {
    await browser.disconnect();
    await chrome.kill();
    await server.close();
  };
  try {
    await seedSessions(new TenantBackend(server.baseUrl, server.sandboxKey));
    const login = await consoleLogin(server.baseUrl, server.consoleLogin);
    const origin = new URL(server.baseUrl).origin;
    const expiresAt = Date.now() + login.expiresIn * 1000;
    return {
      server,
      newPage: () => browser.newPage(),
      sign: (page) => page.evaluateOnNewDocument(signIn, origin, login.accessToken, expiresAt),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
