import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, setViewport } from '@web/test-runner-commands';
import '../../src/id-verify.ts';
import type { IdDocumentType, Side } from '../../src/api/verify-api.ts';
import type { CaptureView } from '../../src/components/capture-view.ts';
import { defineInnerElements } from '../../src/define-inner-elements.ts';
import type { FlowContext } from '../../src/flow/flow-types.ts';
import type { IdVerifyElement } from '../../src/id-verify-element.ts';
import { chooseFile, deep, until } from './support/dom.ts';
import { chromiumOnly, engine } from './support/engine.ts';
import { FakeVerifyApi } from './support/fake-verify-api.ts';

defineInnerElements();

/**
 * The camera guide (issue 14): the chosen document's real shape, its machine-readable zone where that
 * side prints one, inside the visible video on a phone held either way and in RTL, still under reduced
 * motion; and the photo to check is shown whole.
 */

/** ISO/IEC 7810 ID-1 (cards, residence permits, licences) and the TD3 passport data page, in mm. */
const ID1 = 85.6 / 53.98;
const TD3 = 125 / 88;

const CASES: [IdDocumentType, Side, number, number][] = [
  // type, side, width / height, MRZ lines on that side
  ['passport', 'front', TD3, 2],
  ['id_card', 'front', ID1, 0],
  ['id_card', 'back', ID1, 3],
  ['residence_permit', 'back', ID1, 3],
  ['driving_licence', 'front', ID1, 0],
  ['driving_licence', 'back', ID1, 0],
];

const PORTRAIT = { width: 360, height: 740 };
const LANDSCAPE = { width: 740, height: 360 };
const DESKTOP = { width: 1280, height: 800 };

/** Phone-sized screens need the DevTools protocol (Chromium); other engines keep their window. */
async function resize(viewport: { width: number; height: number }, test: unknown): Promise<void> {
  if (viewport === DESKTOP && engine !== 'chromium') return;
  chromiumOnly(test, 'setting the viewport needs the DevTools protocol');
  await setViewport(viewport);
}

async function mountView(
  type: IdDocumentType | null,
  side: Side,
  dir = 'ltr',
  width = '',
): Promise<CaptureView> {
  const host = await fixture<HTMLDivElement>(html`<div dir=${dir} style=${width ? `max-width: ${width}` : ''}>
    <idv-capture-view .guidance=${true} .documentType=${type} .side=${side}></idv-capture-view>
  </div>`);
  const view = host.querySelector('idv-capture-view') as CaptureView;
  await view.updateComplete;
  return view;
}

function parts(view: CaptureView) {
  const root = view.shadowRoot as ShadowRoot;
  const guide = root.querySelector<HTMLElement>('.guide');
  const video = root.querySelector<HTMLElement>('video');
  if (!guide || !video) throw new Error('no guide or video');
  return {
    guide,
    video,
    frame: video.parentElement as HTMLElement,
    mrz: root.querySelector<HTMLElement>('.mrz'),
  };
}

/** `inner` lies within `outer` (sub-pixel rounding allowed). */
function inside(inner: DOMRect, outer: DOMRect): boolean {
  return (
    inner.left >= outer.left - 0.5 &&
    inner.right <= outer.right + 0.5 &&
    inner.top >= outer.top - 0.5 &&
    inner.bottom <= outer.bottom + 0.5
  );
}

describe('camera guide frame', () => {
  afterEach(async () => {
    if (engine !== 'chromium') return;
    await setViewport(DESKTOP);
    await emulateMedia({ reducedMotion: 'no-preference' });
  });

  for (const [viewport, name] of [
    [DESKTOP, 'desktop'],
    [PORTRAIT, 'portrait phone'],
    [LANDSCAPE, 'landscape phone'],
  ] as const) {
    for (const [type, side, ratio, lines] of CASES) {
      it(`${type} ${side}, ${name}: the document's shape within 2 %, inside the video, MRZ lines: ${lines}`, async function () {
        await resize(viewport, this);
        const view = await mountView(type, side);
        const { guide, video, frame, mrz } = parts(view);
        const g = guide.getBoundingClientRect();
        const measured = g.width / g.height;
        expect(Math.abs(measured / ratio - 1), `ratio ${measured} vs ${ratio}`).to.be.below(0.02);
        expect(inside(g, video.getBoundingClientRect()), 'guide inside the video').to.equal(true);
        // Large enough to fill with a document, small enough to leave a margin round it.
        const f = frame.getBoundingClientRect();
        expect(Math.max(g.width / f.width, g.height / f.height)).to.be.within(0.8, 0.9);
        // The whole camera frame is on screen, even on a phone held sideways.
        expect(f.height).to.be.at.most(window.innerHeight * 0.7 + 1);
        if (lines === 0) {
          expect(mrz, 'no MRZ on this side').to.equal(null);
          return;
        }
        expect(mrz).to.exist;
        const m = (mrz as HTMLElement).getBoundingClientRect();
        expect(inside(m, g), 'MRZ inside the guide').to.equal(true);
        // A band along the bottom edge, as tall as the printed zone (17.9 mm of 53.98, 23.2 of 88).
        const border = 3;
        expect(g.bottom - border - m.bottom).to.be.below(1);
        expect(m.width).to.be.closeTo(g.width - 2 * border, 1);
        const share = type === 'passport' ? 23.2 / 88 : 17.9 / 53.98;
        expect(m.height / (g.height - 2 * border)).to.be.closeTo(share, 0.02);
        expect((mrz as HTMLElement).children.length).to.equal(lines);
        expect(guide.getAttribute('aria-hidden')).to.equal('true');
      });
    }
  }

  for (const [type, side, ratio] of CASES) {
    it(`${type} ${side} fits a 320 px column too (a phone-width embed, in every engine)`, async () => {
      const { guide, video } = parts(await mountView(type, side, 'ltr', '320px'));
      const g = guide.getBoundingClientRect();
      expect(g.width).to.be.below(320);
      expect(Math.abs(g.width / g.height / ratio - 1)).to.be.below(0.02);
      expect(inside(g, video.getBoundingClientRect())).to.equal(true);
    });
  }

  it('is centred in right-to-left pages too', async () => {
    for (const dir of ['ltr', 'rtl']) {
      const view = await mountView('passport', 'front', dir);
      const { guide, video } = parts(view);
      const g = guide.getBoundingClientRect();
      const v = video.getBoundingClientRect();
      expect(g.left - v.left, dir).to.be.closeTo(v.right - g.right, 1);
      expect(g.top - v.top, dir).to.be.closeTo(v.bottom - g.bottom, 1);
      expect(Math.abs(g.width / g.height / TD3 - 1)).to.be.below(0.02);
    }
  });

  it('an unknown document type gets the ID-1 card shape and no MRZ', async () => {
    const { guide, mrz } = parts(await mountView(null, 'front'));
    const g = guide.getBoundingClientRect();
    expect(Math.abs(g.width / g.height / ID1 - 1)).to.be.below(0.02);
    expect(mrz).to.equal(null);
  });

  it('nothing moves but the colour change when the frame is good, and that is cut under reduced motion', async function () {
    const { guide, mrz } = parts(await mountView('passport', 'front'));
    for (const el of [guide, mrz as HTMLElement]) expect(getComputedStyle(el).animationName).to.equal('none');
    expect(getComputedStyle(guide).transitionProperty).to.equal('border-color');
    expect(Number.parseFloat(getComputedStyle(guide).transitionDuration)).to.be.above(0.1);
    chromiumOnly(this, 'emulating prefers-reduced-motion needs the DevTools protocol');
    await emulateMedia({ reducedMotion: 'reduce' });
    // The shared styles cut every transition to 0.01 ms.
    const fade = getComputedStyle(parts(await mountView('passport', 'front')).guide).transitionDuration;
    expect(Number.parseFloat(fade), fade).to.be.below(0.001);
  });
});

/** A picture of `width` × `height` (a gradient with a frame, so it encodes like a photo). */
async function picture(width: number, height: number): Promise<File> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
  const gradient = ctx.createLinearGradient(0, 0, width, height);
  gradient.addColorStop(0, '#246');
  gradient.addColorStop(1, '#fc8');
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
  ctx.strokeStyle = '#f00';
  ctx.lineWidth = 8;
  ctx.strokeRect(4, 4, width - 8, height - 8);
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new File([blob], 'photo.png', { type: 'image/png' });
}

/**
 * The part of the picture the `<img>` shows, from its box and `object-fit`: for `contain` (and
 * `scale-down`, `none` when smaller) the whole picture; for `cover` and `fill` what survives.
 */
function shownShare(img: HTMLImageElement): { width: number; height: number; distortion: number } {
  const box = img.getBoundingClientRect();
  const fit = getComputedStyle(img).objectFit;
  const nw = img.naturalWidth;
  const nh = img.naturalHeight;
  if (fit === 'fill') return { width: 1, height: 1, distortion: box.width / box.height / (nw / nh) };
  const scale =
    fit === 'cover' ? Math.max(box.width / nw, box.height / nh) : Math.min(box.width / nw, box.height / nh);
  return {
    width: Math.min(1, box.width / (nw * scale)),
    height: Math.min(1, box.height / (nh * scale)),
    distortion: 1,
  };
}

describe('upload preview', () => {
  afterEach(async () => {
    if (engine === 'chromium') await setViewport(DESKTOP);
  });

  for (const [w, h, viewport, name] of [
    [1600, 900, DESKTOP, 'a wide photo'],
    [900, 1600, DESKTOP, 'a tall photo (taller than the screen allows)'],
    [1200, 1200, PORTRAIT, 'a square photo on a phone'],
    [700, 1800, LANDSCAPE, 'a very tall photo on a phone held sideways'],
  ] as const) {
    it(`shows ${name} whole: no crop, no distortion, inside its frame`, async function () {
      await resize(viewport, this);
      const host = await fixture<HTMLDivElement>(html`<div>
        <idv-capture-view .mode=${'upload'} .guidance=${true} .documentType=${'passport'}></idv-capture-view>
      </div>`);
      const view = host.querySelector('idv-capture-view') as CaptureView;
      await view.updateComplete;
      const input = view.shadowRoot?.querySelector('input[type=file]') as HTMLInputElement;
      chooseFile(input, await picture(w, h));
      const img = await until(
        () => {
          const i = view.shadowRoot?.querySelector<HTMLImageElement>('img[part~="preview"]');
          return i?.complete && i.naturalWidth > 0 ? i : null;
        },
        5000,
        'preview',
      );
      const shown = shownShare(img);
      expect(shown.width, 'share of the width shown').to.be.closeTo(1, 0.005);
      expect(shown.height, 'share of the height shown').to.be.closeTo(1, 0.005);
      expect(shown.distortion).to.be.closeTo(1, 0.01);
      expect(getComputedStyle(img).objectFit).to.equal('contain');
      const frame = img.parentElement as HTMLElement;
      expect(
        inside(img.getBoundingClientRect(), frame.getBoundingClientRect()),
        'not clipped by its frame',
      ).to.equal(true);
      // Within the screen's height, so "Use this photo" is near.
      expect(img.getBoundingClientRect().height).to.be.at.most(window.innerHeight * 0.7 + 1);
    });
  }
});

describe('<id-verify> capture screens with the guide', () => {
  const ctx: FlowContext = {
    steps: ['consent', 'id_document'],
    completed: ['consent'],
    documentTypes: ['passport', 'id_card'],
    documentType: 'id_card',
    captureMode: 'camera',
    cameraIssue: null,
    sandbox: false,
  };

  async function show(
    screen: 'document_front' | 'document_back',
    documentType: IdDocumentType,
    options: { locale?: string; theme?: string } = {},
  ): Promise<IdVerifyElement> {
    const locale = options.locale ?? 'en';
    const el = await fixture<IdVerifyElement>(
      html`<id-verify locale=${locale} theme=${options.theme ?? 'light'} .api=${new FakeVerifyApi()} .pollInterval=${60_000}></id-verify>`,
    );
    await until(() => el.state.phase !== 'loading', 3000, 'loaded');
    await until(
      () => el.shadowRoot?.querySelector('[part~="base"]')?.getAttribute('lang') === locale,
      3000,
      'locale',
    );
    el.flow = { phase: 'step', screen, ctx: { ...ctx, documentType } };
    await el.updateComplete;
    await until(() => deep(el, 'idv-document-step', 'idv-capture-view', '.guide'), 3000, 'guide');
    return el;
  }

  it('the document step gives the capture view the chosen type and side', async () => {
    const el = await show('document_back', 'id_card');
    const view = deep(el, 'idv-document-step', 'idv-capture-view') as CaptureView;
    expect(view.documentType).to.equal('id_card');
    expect(view.side).to.equal('back');
    expect(deep(view, '.mrz')?.children.length).to.equal(3);
    el.flow = { phase: 'step', screen: 'document_front', ctx: { ...ctx, documentType: 'passport' } };
    await el.updateComplete;
    const passport = await until(
      () => deep<HTMLElement>(el, 'idv-document-step', 'idv-capture-view', '.mrz'),
      3000,
      'passport guide',
    );
    const g = (passport.parentElement as HTMLElement).getBoundingClientRect();
    expect(Math.abs(g.width / g.height / TD3 - 1)).to.be.below(0.02);
  });

  for (const [locale, theme] of [
    ['en', 'light'],
    ['en', 'dark'],
    ['ar', 'light'],
  ] as const) {
    it(`passes axe with the guide showing (${locale}, ${theme})`, async function () {
      // axe walks the whole capture screen: a few seconds, past mocha's 10 s default in WebKit on a loaded runner.
      this.timeout(30_000);
      const el = await show('document_front', 'passport', { locale, theme });
      await expect(el).to.be.accessible();
    });
  }
});
