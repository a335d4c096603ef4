import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { en } from '../../../src/i18n/en.ts';
import { until } from '../support/dom.ts';
import { mountWidget, where } from './support/drive-widget.ts';
import { createSession, readSession, simulate } from './support/tenant-server.ts';

/** The screens of a link that cannot be used, against the real server's answers (API.md §9). */
describe('end to end: honest screens for links that cannot go on', () => {
  let el: IdVerifyElement | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
  });

  const heading = (widget: IdVerifyElement) =>
    widget.shadowRoot?.querySelector('[part~="body"] h2')?.textContent?.trim();

  it('says a mangled link is invalid (not expired) and fires idv-error, not idv-token-expired', async function () {
    // Its first command may be the run's first e2e command, which waits for the server to start (up to
    // six 20 s tries, tenant-server.ts): 20 s ran out in Firefox beside the Chromium lane.
    this.timeout(150_000);
    const session = await createSession({ country: 'FRA', flow: 'user', tier: 'tier1' });
    const last = session.verify_url.at(-1) === 'A' ? 'B' : 'A';
    const widget = mountWidget(`${session.verify_url.slice(0, -1)}${last}`);
    el = widget;
    const events: string[] = [];
    for (const type of ['idv-error', 'idv-token-expired', 'idv-ready'])
      widget.addEventListener(type, (e) => events.push(`${type}:${(e as CustomEvent).detail.code ?? ''}`));
    await until(() => where(widget) === 'expired', 8000, 'the link screen');
    await widget.updateComplete;
    expect(heading(widget)).to.equal(en.invalidLinkTitle);
    expect(events).to.deep.equal(['idv-error:invalid_token']);
    await expect(widget).to.be.accessible();
  });

  it('opens an already submitted session on a neutral screen, never as the visitor’s outcome', async function () {
    this.timeout(30_000);
    // The review waits a minute (longer than this test may take): the session is still processing when
    // the widget opens it. Without the delay the sandbox review may decide first (seen in Firefox, whose
    // page loads slower) and the screen is the neutral "finished" one instead.
    const session = await createSession({
      country: 'FRA',
      flow: 'user',
      tier: 'tier1',
      sandbox: { outcome: 'approved', processing_delay_ms: 60_000 },
    });
    expect((await simulate(session.session_id, 'complete_steps')).status).to.equal(200);
    expect((await simulate(session.session_id, 'submit')).status).to.equal(200);
    expect((await readSession(session.session_id)).body.status).to.equal('processing');
    const widget = mountWidget(session.verify_url);
    el = widget;
    await until(() => where(widget).startsWith('result_'), 8000, 'a result screen');
    await widget.updateComplete;
    expect(heading(widget)).to.equal(en.submittedTitle);
    expect(widget.shadowRoot?.textContent).to.not.include(en.resultApprovedTitle);
    await expect(widget).to.be.accessible();
  });
});
