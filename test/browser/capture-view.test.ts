import { expect, fixture, html } from '@open-wc/testing';
import type { CapturedEvent } from '../../src/components/capture-events.ts';
import type { CaptureView } from '../../src/components/capture-view.ts';
import { defineInnerElements } from '../../src/define-inner-elements.ts';
import { en } from '../../src/i18n/en.ts';
import { translator } from '../../src/i18n/localize.ts';
import { until } from './support/dom.ts';
import { chromiumOnly, notInWebKit } from './support/engine.ts';

defineInnerElements();
/** The shell hands every screen its words; standalone, the view gets English's. */
const english = translator(en);

/** Reads the pixel size of a JPEG from its SOF marker (no decoder needed). */
async function jpegSize(blob: Blob): Promise<{ width: number; height: number }> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  expect([bytes[0], bytes[1]]).to.deep.equal([0xff, 0xd8]);
  let i = 2;
  while (i < bytes.length) {
    const marker = bytes[i + 1] ?? 0;
    const length = ((bytes[i + 2] ?? 0) << 8) | (bytes[i + 3] ?? 0);
    if (marker >= 0xc0 && marker <= 0xc2) {
      return {
        height: ((bytes[i + 5] ?? 0) << 8) | (bytes[i + 6] ?? 0),
        width: ((bytes[i + 7] ?? 0) << 8) | (bytes[i + 8] ?? 0),
      };
    }
    i += 2 + length;
  }
  throw new Error('no SOF marker');
}

describe('<idv-capture-view> with the fake camera', () => {
  it('streams the rear camera, guides, auto-captures a good frame and encodes a JPEG under 600 KB', async function () {
    chromiumOnly(this, "auto-capture needs the ID card, which only Chromium's file-fed camera shows");
    this.timeout(15_000);
    const el = await fixture<CaptureView>(
      html`<idv-capture-view .t=${english} .guidance=${true} .facing=${'environment'}></idv-capture-view>`,
    );
    const video = await until(
      () => {
        const v = el.shadowRoot?.querySelector('video');
        return v && v.videoWidth > 0 ? v : null;
      },
      8000,
      'video frames',
    );
    expect(video.muted).to.equal(true);
    expect(video.hasAttribute('playsinline')).to.equal(true);
    // No click: about a second of good frames fires the shutter by itself.
    const img = await until(
      () => el.shadowRoot?.querySelector<HTMLImageElement>('img[part~="preview"]'),
      8000,
      'auto-capture',
    );
    expect(img).to.exist;
    expect(el.quality?.ok).to.equal(true);
    // The analysis ran on live frames; how fast it is, is measured by bench/widget, not asserted here:
    // a timed assertion fails on a busy CI machine (28.5 ms seen once) without any code change.
    expect(el.lastAnalysisMs).to.be.a('number').and.to.be.above(0);
    const captured = new Promise<Blob>((resolve) =>
      el.addEventListener('idv-captured', (e: CapturedEvent) => resolve(e.blob)),
    );
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])]
      .find((b) => /Use this photo/.test(b.textContent ?? ''))
      ?.click();
    const blob = await captured;
    expect(blob.type).to.equal('image/jpeg');
    expect(blob.size).to.be.below(600_000);
    const size = await jpegSize(blob);
    expect(size).to.deep.equal({ width: 1280, height: 720 });
  });

  it('retake returns to the live camera', async function () {
    notInWebKit(this, "WebKitGTK 2.50's mock camera hangs the page once a live stream opens");
    this.timeout(15_000);
    const el = await fixture<CaptureView>(
      html`<idv-capture-view .t=${english} .guidance=${false}></idv-capture-view>`,
    );
    const shutter = await until(
      () => {
        const b = el.shadowRoot?.querySelector<HTMLButtonElement>('button[part~="shutter"]');
        const v = el.shadowRoot?.querySelector('video');
        return b && !b.disabled && v && v.videoWidth > 0 ? b : null;
      },
      8000,
      'shutter ready',
    );
    shutter.click();
    await until(() => el.preview, 5000, 'manual capture');
    await el.updateComplete;
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])]
      .find((b) => /Retake/.test(b.textContent ?? ''))
      ?.click();
    await until(() => !el.preview && el.shadowRoot?.querySelector('video'), 3000, 'live again');
  });

  it('stops every camera track when removed from the page', async function () {
    notInWebKit(this, "WebKitGTK 2.50's mock camera hangs the page once a live stream opens");
    this.timeout(15_000);
    const el = await fixture<CaptureView>(
      html`<idv-capture-view .t=${english} .guidance=${false}></idv-capture-view>`,
    );
    const stream = await until(() => el.camera?.stream, 8000, 'stream');
    el.remove();
    expect(stream.getTracks().every((t) => t.readyState === 'ended')).to.equal(true);
  });
});
