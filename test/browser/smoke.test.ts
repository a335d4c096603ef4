import { expect, fixture, html } from '@open-wc/testing';
import '../../src/id-verify.ts';

describe('<id-verify> smoke', () => {
  it('renders an empty element that passes the accessibility audit', async () => {
    const el = await fixture(html`<id-verify></id-verify>`);
    expect(el.shadowRoot).to.exist;
    await expect(el).to.be.accessible();
  });
});
