import { expect } from '@open-wc/testing';
import { until } from './support/dom.ts';

/** Loads the widget in an iframe whose page forbids inline script and style, and reads its violations. */
async function loadUnderCsp(verifyUrl: string): Promise<{ frame: HTMLIFrameElement; violations: string[] }> {
  const frame = document.createElement('iframe');
  frame.src = `/__csp__/page.html?url=${encodeURIComponent(verifyUrl)}`;
  document.body.append(frame);
  await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  const win = frame.contentWindow as Window & { __cspViolations?: string[] };
  return { frame, violations: win.__cspViolations ?? [] };
}

describe('<id-verify> under a strict CSP', () => {
  it('renders its styled screens with no violation report', async function () {
    this.timeout(15_000);
    // A same-origin link whose API answers 404: the widget renders its error screen, styles and all.
    const { frame, violations } = await loadUnderCsp(`${location.origin}/verify/AbCdEfGhIjKlMnOpQrStUv12`);
    try {
      const widget = await until(
        () => {
          const el = frame.contentDocument?.querySelector('id-verify');
          return el?.shadowRoot?.querySelector('h2') ? el : null;
        },
        10_000,
        'widget rendered in the CSP page',
      );
      // Styles applied (adopted stylesheets are not inline style): the button is at least 44 px.
      const h2 = widget.shadowRoot?.querySelector('h2');
      expect(h2?.textContent?.length).to.be.greaterThan(0);
      const base = widget.shadowRoot?.querySelector('[part~="base"]') as HTMLElement;
      expect(getComputedStyle(base).paddingTop).to.equal('20px');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(violations).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});
