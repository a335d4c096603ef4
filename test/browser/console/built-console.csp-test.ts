/**
 * The built console (dist/console) in a window of its own, served by the real console routes under the
 * real CSP (web-test-runner.console.config.mjs): it must start, log in, draw the dashboard and show
 * evidence images from blob: URLs with zoom, and the browser must report no CSP violation. Only the
 * console config serves /console, so only it runs this file (`*.csp-test.ts`).
 */
import { expect } from '@open-wc/testing';
import type { IdvConsoleElement } from '../../../server/web/console/console-element.ts';
import { until } from '../support/dom.ts';
import { FakeConsoleBackend, PASSWORD } from './support/fake-console-backend.ts';

function shadow(root: Element | null | undefined, ...selectors: string[]): Element | null {
  let node: Element | null | undefined = root;
  for (const selector of selectors) {
    node = (node?.shadowRoot ?? node)?.querySelector(selector);
    if (!node) return null;
  }
  return node ?? null;
}

describe('the built console under its CSP', () => {
  let popup: Window | null = null;
  after(() => popup?.close());

  it('is served with the strict policy and runs without a single violation', async function () {
    this.timeout(30_000);
    const page = await fetch('/console/login');
    expect(page.status, 'build the console first: npx vite build --mode console').to.equal(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("script-src 'self'");
    expect(csp).not.to.match(/unsafe-inline|unsafe-eval/);

    const violations: string[] = [];
    popup = window.open('/console/login', 'idv-console-csp');
    expect(popup, 'the test window could not be opened').to.not.equal(null);
    // The same-origin window keeps its listeners across this first navigation.
    popup!.addEventListener('securitypolicyviolation', (event) => {
      violations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
    const app = await until(
      () => {
        const el = popup!.document.querySelector('idv-console') as IdvConsoleElement | null;
        return el && shadow(el, 'idv-login-screen', 'form') ? el : null;
      },
      10_000,
      'the built console to render its login',
    );

    const backend = new FakeConsoleBackend();
    app.fetchImpl = backend.fetch;
    const login = shadow(app, 'idv-login-screen')!.shadowRoot!;
    (login.querySelector('#email') as HTMLInputElement).value = 'admin@tenant.test';
    (login.querySelector('#password') as HTMLInputElement).value = PASSWORD;
    login.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(
      () => shadow(app, 'idv-dashboard-screen', 'svg[role=img] rect'),
      10_000,
      'the dashboard chart',
    );
    expect(popup!.location.pathname).to.equal('/console/dashboard');
    // Styles applied (constructable stylesheets, allowed without 'unsafe-inline'): the nav is laid out.
    const nav = shadow(app, 'nav') as HTMLElement;
    expect(popup!.getComputedStyle(nav).flexBasis).to.equal('208px');

    app.navigate('/console/reviews');
    const images = await until(
      () => {
        const review = shadow(app, 'idv-review-screen');
        // The evidence section's viewers (the face comparison above shows two of them again).
        const viewers = [...(review?.shadowRoot?.querySelectorAll('.images idv-evidence-image') ?? [])];
        const imgs = viewers
          .map((v) => v.shadowRoot?.querySelector('img'))
          .filter(Boolean) as HTMLImageElement[];
        return imgs.length === 3 && imgs.every((img) => img.complete && img.naturalWidth > 0) ? imgs : null;
      },
      10_000,
      'evidence images decoded from blob: URLs',
    );
    expect(images[0]!.src).to.match(/^blob:/);
    const viewer = images[0]!.getRootNode() as ShadowRoot;
    viewer.querySelector<HTMLButtonElement>('.tools button')!.click();
    await until(() => images[0]!.style.inlineSize === '150%', 2000, 'zoom applied through the CSSOM');
    expect(popup!.getComputedStyle(images[0]!).inlineSize).not.to.equal(
      popup!.getComputedStyle(images[1]!).inlineSize,
    );
    expect(violations).to.deep.equal([]);
  });
});
