import { expect } from '@open-wc/testing';
import { html } from 'lit';
import { FocusController, stepAnnouncement } from '../../../src/controllers/focus-controller.ts';
import type { FlowContext } from '../../../src/flow/flow-types.ts';
import { en } from '../../../src/i18n/en.ts';
import { translator } from '../../../src/i18n/localize.ts';
import { type ControllerTestHost, mountHost } from './test-host.ts';

const ctx: FlowContext = {
  steps: ['consent', 'id_document', 'liveness'],
  completed: [],
  documentTypes: ['passport'],
  documentType: 'passport',
  captureMode: 'camera',
  cameraIssue: null,
  sandbox: false,
};
const t = translator(en);

/** A screen element with its own `focusHeading()`, like the steps. */
class ScreenWithHeading extends HTMLElement {
  called = 0;
  async focusHeading(): Promise<void> {
    this.called += 1;
  }
}
if (!customElements.get('idv-test-screen')) customElements.define('idv-test-screen', ScreenWithHeading);

describe('FocusController', () => {
  let host: ControllerTestHost;
  beforeEach(() => {
    host = mountHost();
  });
  afterEach(() => host.remove());

  it('words a step screen as "Step X of Y: title", and nothing for other screens', () => {
    expect(stepAnnouncement({ phase: 'step', screen: 'document_back', ctx }, t)).to.equal(
      en.stepAnnouncement
        .replace('{current}', '2')
        .replace('{total}', '4')
        .replace('{title}', en.stepIdDocument),
    );
    expect(stepAnnouncement({ phase: 'loading', ctx: null }, t)).to.equal('');
    expect(stepAnnouncement({ phase: 'result', status: 'approved', ctx }, t)).to.equal('');
  });

  it('puts the announcement in the live region through a host update, once per change', async () => {
    const focus = new FocusController(host);
    host.content = html`<div role="status" aria-live="polite">${focus.announcement}</div>`;
    const before = host.updates;
    focus.announce('Step 1 of 2: Consent');
    focus.announce('Step 1 of 2: Consent');
    expect(host.updates - before).to.equal(1);
    expect(focus.announcement).to.equal('Step 1 of 2: Consent');
    focus.announce('');
    expect(focus.announcement).to.equal('');
  });

  it('moves focus to the screen through its own focusHeading()', async () => {
    const focus = new FocusController(host);
    host.content = html`<div part="body"><idv-test-screen></idv-test-screen></div>`;
    host.requestUpdate();
    await focus.focusHeading();
    const screen = host.shadowRoot?.querySelector('idv-test-screen') as ScreenWithHeading;
    expect(screen.called).to.equal(1);
  });

  it("focuses the screen's h2 when the screen has no focusHeading()", async () => {
    const focus = new FocusController(host);
    host.content = html`<div part="body"><h2 tabindex="-1">Title</h2><p>Body</p></div>`;
    host.requestUpdate();
    await focus.focusHeading();
    expect(host.shadowRoot?.activeElement?.tagName).to.equal('H2');
  });
});
