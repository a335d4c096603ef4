import { expect, fixture, html } from '@open-wc/testing';
import '../../src/id-verify.ts';
import type { IdVerifyElement } from '../../src/id-verify-element.ts';
import { en } from '../../src/i18n/en.ts';
import { deep, until } from './support/dom.ts';
import { chromiumOnly } from './support/engine.ts';
import { FakeVerifyApi } from './support/fake-verify-api.ts';

/**
 * Issue #22: after the server refuses a photo for capture quality, the camera does not fire again by
 * itself into the same refusal. The step says what to fix (announced), costs no attempt, and offers every
 * way on right there: try again, upload a file instead, continue on the phone. Chromium's fake camera
 * shows the ID card, so the widget auto-captures; the fake API refuses the first photos as blurry.
 */
describe('<id-verify> after a photo refused for quality', () => {
  let el: IdVerifyElement | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
  });

  async function mount(api: FakeVerifyApi): Promise<IdVerifyElement> {
    const widget = document.createElement('id-verify');
    widget.locale = 'en';
    widget.pollInterval = 20;
    widget.api = api;
    await fixture(html`<div></div>`).then((host) => host.append(widget));
    await until(() => widget.state.phase !== 'loading', 4000, 'session load');
    return widget;
  }

  const preview = (widget: IdVerifyElement) =>
    deep(widget, 'idv-document-step', 'idv-capture-view', 'img[part~="preview"]');

  async function useAutoCapturedPhoto(widget: IdVerifyElement): Promise<void> {
    await until(() => preview(widget), 10_000, 'auto-capture');
    const use = deep<HTMLButtonElement>(
      widget,
      'idv-document-step',
      'idv-capture-view',
      'button[part~="primary"]',
    );
    use?.click();
  }

  it('pauses auto-capture, costs no attempt, and offers try again, upload and the phone', async function () {
    chromiumOnly(this, "auto-capture needs the ID card, which only Chromium's file-fed camera shows");
    this.timeout(40_000);
    const api = new FakeVerifyApi({
      accepted_document_types: ['passport'],
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'pending' },
      ],
    });
    api.qualityIssues = [['blurry'], ['glare']];
    el = await mount(api);
    const widget = el;
    expect(widget.state.phase === 'step' && widget.state.screen).to.equal('document_front');

    await useAutoCapturedPhoto(widget);
    const tryAgain = await until(
      () => deep<HTMLButtonElement>(widget, 'idv-document-step', '#try-again'),
      5000,
      'refusal',
    );
    // What to fix is announced once, in the step's words; focus is on the way forward.
    const alert = deep(widget, 'idv-document-step', '[role="alert"]');
    expect(alert?.textContent).to.include(en.retakeTitle);
    expect(alert?.textContent).to.include(en.guideBlurry);
    const step = deep(widget, 'idv-document-step') as HTMLElement;
    await until(() => step.shadowRoot?.activeElement === tryAgain, 3000, 'focus on Try again');
    const labels = [...(step.shadowRoot?.querySelectorAll('.refused button') ?? [])].map((b) =>
      b.textContent?.trim(),
    );
    expect(labels).to.deep.equal([en.retry, en.captureUploadInstead, en.handoffButton]);
    // No attempt used: the shell shows no "attempts left".
    // (Booleans, not elements: chai's message for a failed comparison of elements inspects the whole DOM.)
    expect(Boolean(widget.shadowRoot?.querySelector('[part~="attempts"]')), 'no attempts notice').to.equal(
      false,
    );

    // The camera is live again, judging frames, but does not fire by itself while the person decides.
    await until(
      () =>
        (deep(widget, 'idv-document-step', 'idv-capture-view') as { quality?: { ok: boolean } } | null)
          ?.quality?.ok,
      8000,
      'good frames again',
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(Boolean(preview(widget)), 'no auto-capture while paused').to.equal(false);
    expect(api.uploads.length).to.equal(1);
    await expect(step).to.be.accessible();

    // Try again: auto-capture resumes; the second refusal is handled the same way.
    tryAgain.click();
    await useAutoCapturedPhoto(widget);
    await until(() => deep(widget, 'idv-document-step', '#try-again'), 5000, 'second refusal');
    expect(api.uploads.length).to.equal(2);

    // The phone: the shell opens the handoff screen.
    const phone = [...(step.shadowRoot?.querySelectorAll<HTMLButtonElement>('.refused button') ?? [])].find(
      (b) => b.textContent?.trim() === en.handoffButton,
    );
    phone?.click();
    await until(() => widget.shadowRoot?.querySelector('idv-handoff-view'), 3000, 'handoff view');
  });

  it('switches to uploading a file from the refusal, where the next photo is accepted', async function () {
    chromiumOnly(this, "auto-capture needs the ID card, which only Chromium's file-fed camera shows");
    this.timeout(30_000);
    const api = new FakeVerifyApi({
      accepted_document_types: ['passport'],
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'pending' },
      ],
    });
    api.qualityIssues = [['too_dark']];
    el = await mount(api);
    const widget = el;
    await useAutoCapturedPhoto(widget);
    await until(() => deep(widget, 'idv-document-step', '#try-again'), 5000, 'refusal');
    const step = deep(widget, 'idv-document-step') as HTMLElement;
    const uploadInstead = [
      ...(step.shadowRoot?.querySelectorAll<HTMLButtonElement>('.refused button') ?? []),
    ].find((b) => b.textContent?.trim() === en.captureUploadInstead);
    uploadInstead?.click();
    await until(
      () => deep(widget, 'idv-document-step', 'idv-capture-view', 'input[type=file]'),
      3000,
      'file input',
    );
    expect(widget.state.phase === 'step' && widget.state.ctx.captureMode).to.equal('upload');
  });
});
