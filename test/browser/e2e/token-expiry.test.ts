import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { deep, until } from '../support/dom.ts';
import { chromiumOnly } from '../support/engine.ts';
import {
  acceptPreview,
  chooseDocumentType,
  clickButton,
  giveConsent,
  mountWidget,
  onScreen,
  where,
} from './support/drive-widget.ts';
import { createSession, newVerifyUrl, readSession, simulate } from './support/tenant-server.ts';

type ExpiredDetail = { code: string; reason: string };

function expiredEvents(el: IdVerifyElement): ExpiredDetail[] {
  const seen: ExpiredDetail[] = [];
  el.addEventListener('idv-token-expired', (e) => seen.push((e as CustomEvent<ExpiredDetail>).detail));
  return seen;
}

/** Ticks the consent box and presses Agree: the end-user's first write to the server. */
async function pressAgree(el: IdVerifyElement): Promise<void> {
  await onScreen(el, 'consent');
  const step = await until(() => deep(el, 'idv-consent-step'), 4000, 'consent step');
  deep<HTMLInputElement>(step, '#agree')?.click();
  await (step as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  await clickButton(step, /Agree/, 'Agree button');
}

describe('end to end: expiry against the real server', () => {
  let el: IdVerifyElement | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
  });

  it('fires idv-token-expired (session_expired) when the session expires while the end-user is on it', async function () {
    // Its first command may be the run's first e2e command, which waits for the server to start (up to
    // six 20 s tries, tenant-server.ts).
    this.timeout(150_000);
    const session = await createSession({ country: 'FRA', flow: 'user', tier: 'tier2' });
    const widget = mountWidget(session.verify_url);
    el = widget;
    const expired = expiredEvents(widget);
    await onScreen(widget, 'consent');

    // The session's time runs out (sandbox: expired now, with the real transition and event).
    const simulated = await simulate(session.session_id, 'expire');
    expect(simulated.status).to.equal(200);
    expect(simulated.body.status).to.equal('expired');

    await pressAgree(widget);
    await until(() => expired.length > 0, 8000, 'idv-token-expired');
    expect(expired).to.deep.equal([{ code: 'session_expired', reason: 'session_expired' }]);
    expect(where(widget)).to.equal('expired');
    await widget.updateComplete;
    expect(widget.shadowRoot?.textContent).to.match(/expired/i);
    // Nothing was recorded after the expiry.
    const after = await readSession(session.session_id);
    expect(after.body.status).to.equal('expired');
    expect(after.body.steps.find((s: { step: string }) => s.step === 'consent').status).to.equal('pending');
  });

  it('fires idv-token-expired when the link is replaced, and resumes where it was with the fresh verify-url', async function () {
    chromiumOnly(this, "the front side is auto-captured from the ID card only Chromium's camera shows");
    this.timeout(20_000);
    const session = await createSession({ country: 'FRA', flow: 'user', tier: 'tier2' });
    const widget = mountWidget(session.verify_url);
    el = widget;
    const expired = expiredEvents(widget);
    const errors: string[] = [];
    widget.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));
    await giveConsent(widget);
    await onScreen(widget, 'document_type');

    // The tenant issues a new link (e.g. the end-user asked for one by e-mail): the old token is dead.
    const fresh = await newVerifyUrl(session.session_id);
    expect(fresh.status).to.equal(200);
    expect(fresh.body.verify_url).to.be.a('string').and.not.equal(session.verify_url);

    // The end-user carries on: the front side is captured and its upload, with the old token, refused.
    await chooseDocumentType(widget, 'id_card');
    await acceptPreview(widget);
    await until(() => expired.length > 0, 8000, 'idv-token-expired');
    expect(expired[0]?.code).to.equal('verify_token_expired');
    expect(errors, 'the server refused the old token').to.deep.equal(['invalid_token']);
    expect(where(widget)).to.equal('expired');

    // The host page hands over the fresh link: the flow resumes after the consent already given.
    widget.setAttribute('verify-url', fresh.body.verify_url);
    await onScreen(widget, 'document_type', 8000);
    expect(expired).to.have.length(1);
  });
});
