import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { TenantBranding } from '../../../src/api/verify-api.ts';
import { BrandingController } from '../../../src/controllers/branding-controller.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { deep, until } from '../support/dom.ts';
import { FakeVerifyApi } from '../support/fake-verify-api.ts';
import { type ControllerTestHost, mountHost } from './test-host.ts';

describe('BrandingController', () => {
  let host: ControllerTestHost;
  let branding: TenantBranding | undefined;
  beforeEach(() => {
    host = mountHost();
    branding = undefined;
    new BrandingController(host, () => branding);
  });
  afterEach(() => host.remove());

  const brand = () => getComputedStyle(host).getPropertyValue('--idv-brand-primary').trim();

  it('adds no stylesheet without branding', async () => {
    const sheets = host.shadowRoot?.adoptedStyleSheets.length;
    host.requestUpdate();
    await host.updateComplete;
    expect(host.shadowRoot?.adoptedStyleSheets.length).to.equal(sheets);
  });

  it("puts the tenant's colour on :host as a constructed stylesheet, and takes it away again", async () => {
    branding = { primary_color: '#0a7f3f' };
    host.requestUpdate();
    await host.updateComplete;
    expect(brand()).to.equal('#0a7f3f');
    expect(host.getAttribute('style')).to.equal(null, 'no style attribute (CSP without unsafe-inline)');
    branding = undefined;
    host.requestUpdate();
    await host.updateComplete;
    expect(brand()).to.equal('');
  });

  it('ignores anything but a plain hex colour (no CSS smuggled in)', async () => {
    branding = { primary_color: 'red;}:host{display:none' };
    host.requestUpdate();
    await host.updateComplete;
    expect(brand()).to.equal('');
    expect(getComputedStyle(host).display).to.not.equal('none');
  });
});

describe('branding on <id-verify>', () => {
  it("colours the primary button with the tenant's colour; a page rule on id-verify still wins", async () => {
    const api = new FakeVerifyApi({
      tenant: { name: 'Acme Bank', branding: { primary_color: '#0a7f3f' } },
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'completed' },
      ],
    });
    const el = await fixture<IdVerifyElement>(html`<id-verify locale="en" .api=${api}></id-verify>`);
    const submit = await until(
      () => deep(el, 'idv-review-step', 'button[part~="primary"]'),
      3000,
      'review submit button',
    );
    expect(getComputedStyle(submit).backgroundColor).to.equal('rgb(10, 127, 63)');
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('id-verify { --idv-color-primary: rgb(1, 2, 3); }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    try {
      expect(getComputedStyle(submit).backgroundColor).to.equal('rgb(1, 2, 3)');
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  });
});
