import { expect } from '@open-wc/testing';
import type { Role } from '../../../server/web/console/api/console-api.ts';
import { until } from '../support/dom.ts';
import { mountConsole, resetStorage, screenOf, settled } from './support/mount-console.ts';

/** Every element matching `selector` in a tree, through every shadow root. */
function deepAll(root: Element | ShadowRoot, selector: string): Element[] {
  const found = [...root.querySelectorAll(selector)];
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) found.push(...deepAll(element.shadowRoot, selector));
  }
  return found;
}

/** The pages a viewer may open, each with what marks it as loaded. */
const VIEWER_PAGES = [
  { path: '/console/dashboard', ready: 'svg[role=img]' },
  { path: '/console/sessions', ready: 'table' },
  { path: '/console/sessions/sess_Collecting0000000001', ready: '#timeline' },
  { path: '/console/identities', ready: 'table' },
  { path: '/console/identities/idn_Fake0000000000000001', ready: 'dl' },
  { path: '/console/webhooks', ready: 'table' },
  { path: '/console/webhooks/wh_Fake00000000000000001', ready: 'section[aria-labelledby=log] table' },
];

async function open(role: Role, page: (typeof VIEWER_PAGES)[number]) {
  const mounted = await mountConsole({ role, path: page.path });
  await until(
    () => screenOf(mounted.el)?.shadowRoot?.querySelector(page.ready),
    6000,
    `${page.path} ${page.ready}`,
  );
  await settled(mounted.el);
  return mounted;
}

describe('console for a viewer', () => {
  afterEach(() => resetStorage());

  for (const page of VIEWER_PAGES) {
    it(`${page.path}: no write action, and nothing refused`, async function () {
      this.timeout(15_000);
      const { el, backend } = await open('viewer', page);
      const screen = screenOf(el)!.shadowRoot!;
      expect(deepAll(screen, '[data-write]').map((node) => node.outerHTML.slice(0, 80))).to.deep.equal([]);
      const labels = deepAll(screen, 'button').map((button) => button.textContent?.trim() ?? '');
      for (const write of [
        'Cancel session',
        'Start re-verification',
        'Add endpoint',
        'Send test event',
        'Disable',
        'Rotate secret',
        'Retry now',
        'Save',
      ]) {
        expect(labels).not.to.include(write);
      }
      expect(backend.writes()).to.deep.equal([]);
      expect(backend.requests.filter((r) => r.status === 403).map((r) => r.path)).to.deep.equal([]);
    });
  }

  it('sees masked personal values, said so on the page', async () => {
    const { el } = await open('viewer', VIEWER_PAGES[4]!);
    const text = screenOf(el)!.shadowRoot!.textContent!;
    expect(text).to.include('Personal values are masked');
    expect(text).to.include('E***');
    expect(text).not.to.include('Erika');
  });

  it('the same pages offer their write actions to an admin (so the check above can fail)', async function () {
    this.timeout(20_000);
    for (const page of [VIEWER_PAGES[2]!, VIEWER_PAGES[4]!, VIEWER_PAGES[5]!, VIEWER_PAGES[6]!]) {
      const { el } = await open('tenant_admin', page);
      expect(deepAll(screenOf(el)!.shadowRoot!, '[data-write]').length, page.path).to.be.greaterThan(0);
    }
  });
});
