import { expect } from '@open-wc/testing';
import type { Role } from '../../../server/web/console/api/console-api.ts';
import { until } from '../support/dom.ts';
import {
  loadConsoleScreens,
  mountConsole,
  resetStorage,
  screenOf,
  settled,
} from './support/mount-console.ts';

interface ScreenCase {
  name: string;
  path: string;
  role?: Role;
  /** In the screen's shadow root once its data is shown. */
  ready: string;
}

/** Every console screen, each with what marks it as loaded. */
const SCREENS: ScreenCase[] = [
  { name: 'login', path: '/console/login', ready: 'form' },
  { name: 'accept invitation', path: '/console/accept-invitation#inv_Valid', ready: 'form' },
  { name: 'dashboard', path: '/console/dashboard', role: 'tenant_admin', ready: 'svg[role=img]' },
  { name: 'sessions', path: '/console/sessions', role: 'tenant_admin', ready: 'table' },
  {
    name: 'session detail',
    path: '/console/sessions/sess_Approved000000000001',
    role: 'tenant_admin',
    ready: '#deliveries',
  },
  { name: 'review queue', path: '/console/reviews', role: 'tenant_admin', ready: '#decision' },
  { name: 'identities', path: '/console/identities', role: 'tenant_admin', ready: 'table' },
  {
    name: 'identity detail',
    path: '/console/identities/idn_Fake0000000000000001',
    role: 'tenant_admin',
    ready: '#reverification',
  },
  { name: 'webhooks', path: '/console/webhooks', role: 'tenant_admin', ready: 'table' },
  {
    name: 'webhook detail',
    path: '/console/webhooks/wh_Fake00000000000000001',
    role: 'tenant_admin',
    ready: '#log',
  },
  { name: 'API keys', path: '/console/api-keys', role: 'tenant_admin', ready: 'table' },
  { name: 'team', path: '/console/team', role: 'tenant_admin', ready: 'table' },
  { name: 'settings', path: '/console/settings', role: 'tenant_admin', ready: '#watchlist' },
  { name: 'audit log', path: '/console/audit', role: 'tenant_admin', ready: 'table' },
  { name: 'not found', path: '/console/nowhere', role: 'tenant_admin', ready: 'h1' },
  { name: 'no access (viewer on settings)', path: '/console/settings', role: 'viewer', ready: 'h1' },
];

const VARIANTS = [
  { label: 'light, en', locale: 'en', theme: 'light', dir: 'ltr' },
  { label: 'dark, en', locale: 'en', theme: 'dark', dir: 'ltr' },
  { label: 'light, ar (RTL)', locale: 'ar', theme: 'light', dir: 'rtl' },
] as const;

for (const variant of VARIANTS) {
  describe(`console accessibility (${variant.label})`, () => {
    // Each screen's chunk compiled and loaded before any screen is timed (see loadConsoleScreens).
    before(async function () {
      this.timeout(120_000);
      await loadConsoleScreens(variant.locale);
    });
    afterEach(() => resetStorage());

    for (const screen of SCREENS) {
      it(`${screen.name} passes axe`, async function () {
        // Above the waits below (the screen heading's 30 s in mountConsole, 4 s, 6 s) and axe.
        this.timeout(60_000);
        const { el } = await mountConsole({
          path: screen.path,
          theme: variant.theme,
          locale: variant.locale,
          ...(screen.role ? { role: screen.role } : {}),
        });
        await until(() => document.documentElement.dir === variant.dir, 4000, `dir=${variant.dir}`);
        await until(() => screenOf(el)?.shadowRoot?.querySelector(screen.ready), 6000, screen.ready);
        if (screen.name === 'review queue') {
          await until(
            // The evidence section's three (the face comparison shows two of them again above it).
            () => screenOf(el)?.shadowRoot?.querySelectorAll('.images idv-evidence-image').length === 3,
            4000,
            'the evidence viewers',
          );
        }
        await settled(el);
        expect(el.shadowRoot?.querySelector('[dir]')?.getAttribute('dir')).to.equal(variant.dir);
        await expect(el).to.be.accessible();
      });
    }
  });
}
