import { expect, fixture, html } from '@open-wc/testing';
import '../../src/id-verify.ts';
import type { IdVerifyElement } from '../../src/id-verify-element.ts';
import { en } from '../../src/i18n/en.ts';
import { messages as de } from '../../src/i18n/locales/de.ts';
import { chooseFile, deep, fill, until } from './support/dom.ts';
import {
  brokenPhotoFile,
  FakeVerifyApi,
  type FakeSessionInit,
  photoFile,
} from './support/fake-verify-api.ts';

/**
 * What the end-user is told (issue 14): attempts left and the final screen, the server's problems in
 * the widget's language and next to the field, honest screens, capture that never fakes liveness, and
 * the order of the element's events. On the embedded element; "hosted" mounts the element the way the
 * hosted page does (its `verify-url` is the page's own address).
 */

type Stub = { restore(): void };
let stubs: Stub[] = [];

function denyCamera(): void {
  const media = navigator.mediaDevices;
  const original = media.getUserMedia;
  media.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  stubs.push({ restore: () => (media.getUserMedia = original) });
}

/** A phone: User-Agent Client Hints say mobile, or a coarse pointer on a small screen. */
function pretendPhone(how: 'ua-ch' | 'pointer'): void {
  if (how === 'ua-ch') {
    Object.defineProperty(navigator, 'userAgentData', { value: { mobile: true }, configurable: true });
    stubs.push({ restore: () => delete (navigator as { userAgentData?: unknown }).userAgentData });
    return;
  }
  const original = window.matchMedia;
  window.matchMedia = (query: string) =>
    ({ matches: /pointer: coarse/.test(query), media: query }) as MediaQueryList;
  stubs.push({ restore: () => (window.matchMedia = original) });
}

interface Mounted {
  el: IdVerifyElement;
  events: { type: string; detail: unknown }[];
}

const EVENTS = ['idv-ready', 'idv-step-change', 'idv-complete', 'idv-error', 'idv-exit', 'idv-token-expired'];

async function mount(
  api: FakeVerifyApi,
  options: { locale?: string; hosted?: boolean } = {},
): Promise<Mounted> {
  const events: Mounted['events'] = [];
  const el = document.createElement('id-verify');
  for (const type of EVENTS)
    el.addEventListener(type, (e) => events.push({ type, detail: (e as CustomEvent).detail }));
  el.locale = options.locale ?? 'en';
  el.pollInterval = 20;
  el.api = api;
  // The hosted page points the element at its own address (server/web/hosted/main.ts).
  if (options.hosted) el.verifyUrl = `${location.origin}${location.pathname}`;
  await fixture(html`<div></div>`).then((host) => host.append(el));
  await until(() => el.state.phase !== 'loading', 4000, 'session load');
  await el.updateComplete;
  return { el, events };
}

function buttons(root: Element | null | undefined): HTMLButtonElement[] {
  return [...((root?.shadowRoot ?? root)?.querySelectorAll('button') ?? [])];
}

function button(root: Element | null | undefined, text: string | RegExp): HTMLButtonElement {
  const found = buttons(root).find((b) =>
    typeof text === 'string' ? b.textContent?.trim() === text : text.test(b.textContent ?? ''),
  );
  if (!found) throw new Error(`no button ${text}`);
  return found;
}

const heading = (el: IdVerifyElement) =>
  el.shadowRoot?.querySelector('[part~="body"] h2')?.textContent?.trim();
const bodyText = (el: IdVerifyElement) =>
  (el.shadowRoot?.querySelector('[part~="body"]')?.textContent ?? '').replace(/\s+/g, ' ');
const attemptsNotice = (el: IdVerifyElement) =>
  el.shadowRoot?.querySelector('[part~="attempts"]')?.textContent?.trim() ?? null;

/** Uploads a file on the current capture screen and presses "Use this photo". */
async function upload(el: IdVerifyElement, stepTag: string, file = photoFile()): Promise<void> {
  const input = await until(
    () => deep<HTMLInputElement>(el, stepTag, 'idv-capture-view', 'input[type=file]'),
    3000,
    'file input',
  );
  chooseFile(input, file);
  await usePreview(el, stepTag);
}

/** Presses "Use this photo" (in whatever language) under the preview. */
async function usePreview(el: IdVerifyElement, stepTag: string): Promise<void> {
  const view = deep(el, stepTag, 'idv-capture-view') as Element;
  await until(() => deep(view, 'img[part~="preview"]'), 3000, 'preview');
  (await until(() => deep<HTMLButtonElement>(view, 'button[part~="primary"]'), 3000, 'use button')).click();
}

function passportAt(step: 'document' | 'liveness', extra: FakeSessionInit = {}) {
  return new FakeVerifyApi({
    required_steps: ['consent', 'id_document', 'liveness'],
    accepted_document_types: ['passport'],
    steps: [
      { step: 'consent', status: 'completed' },
      { step: 'id_document', status: step === 'liveness' ? 'completed' : 'pending' },
      { step: 'liveness', status: 'pending' },
    ],
    ...extra,
  });
}

describe('<id-verify> tells the end-user the truth', () => {
  afterEach(() => {
    for (const stub of stubs.reverse()) stub.restore();
    stubs = [];
  });

  describe('attempts', () => {
    it('uses no attempt for a photo refused for quality: no notice, the retake offered with the phone', async function () {
      this.timeout(15_000);
      denyCamera();
      const api = passportAt('document');
      api.qualityIssues = [['blurry'], ['glare'], ['too_dark'], ['blurry']];
      const { el, events } = await mount(api);
      await until(() => el.state.phase === 'step' && el.state.ctx.cameraIssue, 3000, 'upload fallback');
      for (let i = 0; i < 4; i++) {
        await upload(el, 'idv-document-step');
        await until(() => deep(el, 'idv-document-step', '#try-again'), 3000, `refusal ${i + 1}`);
        expect(attemptsNotice(el), 'a quality refusal uses no attempt').to.equal(null);
        expect(el.state.phase === 'step' && el.state.screen).to.equal('document_front');
        (deep(el, 'idv-document-step', '#try-again') as HTMLButtonElement).click();
      }
      expect(api.session.status).to.equal('collecting');
      const codes = events
        .filter((e) => e.type === 'idv-error')
        .map((e) => (e.detail as { code: string }).code);
      expect(codes).to.not.include('attempts_exhausted');
      await expect(el).to.be.accessible();
    });

    it('shows the attempts left once a judged try failed, then the final screen and idv-error when none are left', async function () {
      this.timeout(15_000);
      const api = passportAt('liveness');
      const judged = { status: 'retry', attempts_remaining: 0, reason: 'no_face' } as const;
      api.livenessResults = [
        { status: 'retry', attempts_remaining: 3, reason: 'capture_quality', quality_issues: ['too_dark'] },
        judged,
        judged,
        judged,
      ];
      const { el, events } = await mount(api);
      const step = await until(
        () =>
          deep(el, 'idv-liveness-step') as
            | (HTMLElement & { addFrame(blob: Blob): Promise<void>; challenge: unknown })
            | null,
        3000,
        'liveness step',
      );
      const attempt = async () => {
        await until(() => step.challenge, 3000, 'challenge');
        await step.addFrame(new Blob(['a'], { type: 'image/jpeg' }));
        await step.addFrame(new Blob(['b'], { type: 'image/jpeg' }));
      };
      await attempt();
      expect(attemptsNotice(el), 'frames refused for capture quality use no attempt').to.equal(null);
      await attempt();
      await until(() => attemptsNotice(el) === '2 attempts left', 3000, 'two left');
      expect(el.shadowRoot?.querySelector('[part~="attempts"]')?.getAttribute('role')).to.equal('status');
      await expect(el).to.be.accessible();
      await attempt();
      await until(() => attemptsNotice(el) === '1 attempt left', 3000, 'one left');
      await attempt();

      await until(() => el.state.phase === 'result' && el.state.status === 'rejected', 3000, 'final screen');
      await el.updateComplete;
      expect(heading(el)).to.equal(en.attemptsExhaustedTitle);
      expect(bodyText(el)).to.include(en.attemptsExhaustedBody.replace('{tenant}', 'Acme Bank'));
      const errors = events.filter((e) => e.type === 'idv-error').map((e) => e.detail);
      expect(errors).to.deep.include({
        code: 'attempts_exhausted',
        message: en.attemptsExhaustedBody.replace('{tenant}', 'Acme Bank'),
        recoverable: false,
      });
      await expect(el).to.be.accessible();
    });

    it('shows the attempts left on the selfie check after a failed one, also on a resumed visit', async function () {
      this.timeout(15_000);
      const api = passportAt('liveness', {
        steps: [
          { step: 'consent', status: 'completed', attempts_remaining: 3 },
          { step: 'id_document', status: 'completed', attempts_remaining: 3 },
          { step: 'liveness', status: 'pending', attempts_remaining: 1 },
        ],
      });
      const { el } = await mount(api);
      expect(el.state.phase === 'step' && el.state.screen).to.equal('liveness');
      expect(attemptsNotice(el)).to.equal('1 attempt left');
    });

    it('opens on the final screen when the session was rejected for lack of attempts', async () => {
      const api = passportAt('document', {
        status: 'rejected',
        steps: [
          { step: 'consent', status: 'completed' },
          { step: 'id_document', status: 'pending', attempts_remaining: 0 },
          { step: 'liveness', status: 'pending' },
        ],
      });
      const { el, events } = await mount(api, { hosted: true });
      expect(heading(el)).to.equal(en.attemptsExhaustedTitle);
      expect(events.map((e) => e.type)).to.include('idv-error');
    });
  });

  describe('server messages in the widget’s language', () => {
    it('words a known problem code itself, in German, and keeps the server text for an unknown one', async function () {
      this.timeout(15_000);
      denyCamera();
      const api = passportAt('document');
      api.failWith('uploadDocument', 422, {
        code: 'unprocessable_image',
        user_message: 'We could not read this photo. Please take it again.',
      });
      api.failWith('uploadDocument', 422, { code: 'brand_new_code', user_message: 'Server wording.' });
      const { el, events } = await mount(api, { locale: 'de' });
      await until(() => el.state.phase === 'step' && el.state.ctx.cameraIssue, 3000, 'upload fallback');
      await upload(el, 'idv-document-step');
      const alert = () => deep(el, 'idv-document-step', 'p.error[role="alert"]')?.textContent?.trim();
      await until(() => alert() === de.problemUnreadableImage, 3000, 'German message');
      const errors = events.filter((e) => e.type === 'idv-error').map((e) => e.detail);
      expect(errors).to.deep.include({
        code: 'unprocessable_image',
        message: de.problemUnreadableImage,
        recoverable: true,
      });
      await until(() => deep(el, 'idv-document-step', 'idv-capture-view', 'img'), 3000, 'preview kept');
      await usePreview(el, 'idv-document-step');
      await until(() => alert() === 'Server wording.', 3000, 'unknown code: server text');
    });

    it('shows field errors of a problem next to their fields, marked invalid and announced', async function () {
      this.timeout(15_000);
      denyCamera();
      const api = passportAt('document');
      api.failWith('putDetails', 400, {
        code: 'invalid_parameter',
        param: 'date_of_birth',
        detail: '`date_of_birth`: invalid; `nationality`: must be an ISO 3166-1 alpha-3 code such as DEU',
        errors: [
          { param: 'date_of_birth', code: 'invalid_parameter', detail: '`date_of_birth`: invalid' },
          { param: 'nationality', code: 'invalid_parameter', detail: 'must be alpha-3' },
          { param: 'document_number', code: 'missing_parameter', detail: 'required' },
        ],
      });
      const { el, events } = await mount(api);
      await until(() => el.state.phase === 'step' && el.state.ctx.cameraIssue, 3000, 'upload fallback');
      await upload(el, 'idv-document-step');
      const step = await until(() => deep(el, 'idv-document-step'), 3000, 'step');
      await until(() => deep(step, '#first_name'), 3000, 'form');
      for (const [id, value] of [
        ['first_name', 'ANNA'],
        ['last_name', 'ERIKSSON'],
        ['date_of_birth', '1974-08-12'],
        ['document_number', 'L898902C3'],
        ['expiry_date', '2032-04-15'],
      ] as const)
        fill(deep<HTMLInputElement>(step, `#${id}`)!, value);
      button(step, /Confirm details/).click();

      const dob = await until(
        () => deep<HTMLInputElement>(step, '#date_of_birth[aria-invalid="true"]'),
        3000,
        'date of birth marked invalid',
      );
      const described = (input: HTMLInputElement | null) =>
        step.shadowRoot?.getElementById(input?.getAttribute('aria-describedby') ?? '')?.textContent?.trim();
      expect(described(dob)).to.equal(en.fieldCheckDateOfBirth);
      expect(described(deep<HTMLInputElement>(step, '#nationality'))).to.equal(en.invalidCountryCode);
      expect(described(deep<HTMLInputElement>(step, '#document_number'))).to.equal(en.required);
      expect(deep(step, '#first_name')?.getAttribute('aria-invalid')).to.equal('false');
      expect(deep(step, 'form [role="alert"]')?.textContent?.trim()).to.equal(en.detailsFixFields);
      expect(step.shadowRoot?.activeElement?.id, 'focus on the first field to fix').to.equal('date_of_birth');
      expect(bodyText(el)).to.not.include(en.genericError);
      expect(bodyText(el)).to.not.include('ISO 3166');
      expect(events.some((e) => e.type === 'idv-error')).to.equal(true);
      await expect(el).to.be.accessible();
    });

    it('words decision reasons itself', async () => {
      const api = new FakeVerifyApi({
        status: 'rejected',
        reasons: [
          { code: 'document_expired', user_message: 'Your document has expired.' },
          { code: 'watchlist_hit', user_message: 'Neutral.' },
        ],
      });
      const { el } = await mount(api, { locale: 'de' });
      await until(() => bodyText(el).includes(de.reasonDocumentExpired), 3000, 'German reason');
      expect(bodyText(el)).to.include(de.reasonNeutral.replace('{tenant}', 'Acme Bank'));
    });
  });

  describe('honest screens', () => {
    it('says an invalid link is invalid, not expired, and fires no idv-token-expired', async () => {
      const api = new FakeVerifyApi();
      api.failNext('getSession', 401, 'invalid_token');
      const { el, events } = await mount(api, { hosted: true });
      expect(heading(el)).to.equal(en.invalidLinkTitle);
      expect(bodyText(el)).to.not.match(/expired/i);
      expect(events.map((e) => e.type)).to.not.include('idv-token-expired');
      expect(events.find((e) => e.type === 'idv-error')?.detail).to.deep.include({ code: 'invalid_token' });
      await expect(el).to.be.accessible();
    });

    it('distinguishes an expired link, a cancelled, an already-submitted and a finished session', async () => {
      const expired = new FakeVerifyApi();
      expired.failNext('getSession', 401, 'token_expired');
      expect(heading((await mount(expired)).el)).to.equal(en.expiredTitle);

      const cancelled = await mount(new FakeVerifyApi({ status: 'cancelled' }));
      expect(heading(cancelled.el)).to.equal(en.resultCancelledTitle);

      // Still being checked: this fake answers `processing` on every read.
      const submitted = new FakeVerifyApi({ status: 'processing' });
      submitted.getSession = async () => structuredClone(submitted.session);
      const sent = await mount(submitted, { hosted: true });
      expect(heading(sent.el)).to.equal(en.submittedTitle);
      await expect(sent.el).to.be.accessible();

      // A retry link opened after the identity was enrolled: no "you're verified" for whoever is here.
      const finished = await mount(new FakeVerifyApi({ status: 'approved' }));
      expect(heading(finished.el)).to.equal(en.finishedTitle);
      expect(bodyText(finished.el)).to.not.include(en.resultApprovedTitle);
    });
  });

  describe('capture', () => {
    it('keeps the selfie check on the camera after "Upload a file instead" for the document', async function () {
      this.timeout(20_000);
      const api = passportAt('document');
      const { el } = await mount(api);
      const view = () => deep(el, 'idv-document-step', 'idv-capture-view');
      (
        await until(
          () => buttons(view()).find((b) => /Upload a file instead/.test(b.textContent ?? '')),
          4000,
          'upload link',
        )
      ).click();
      await upload(el, 'idv-document-step');
      await until(() => el.state.phase === 'step' && el.state.screen === 'document_details', 3000, 'details');
      const step = deep(el, 'idv-document-step') as Element;
      await until(() => deep(step, '#first_name'), 3000, 'form');
      for (const [id, value] of [
        ['first_name', 'A'],
        ['last_name', 'B'],
        ['date_of_birth', '1974-08-12'],
        ['document_number', 'L898902C3'],
        ['expiry_date', '2032-04-15'],
      ] as const)
        fill(deep<HTMLInputElement>(step, `#${id}`)!, value);
      button(step, /Confirm details/).click();
      await until(() => el.state.phase === 'step' && el.state.screen === 'liveness', 3000, 'liveness');
      const live = await until(() => deep(el, 'idv-liveness-step'), 4000, 'liveness step');
      (
        await until(
          () => buttons(live).find((b) => /Start/.test(b.textContent ?? '') && !b.disabled),
          3000,
          'Start',
        )
      ).click();
      await until(() => deep(live, 'video'), 3000, 'camera, not files');
      expect(deep(live, 'input[type=file]')).to.equal(null);
    });

    it('shows the whole uploaded picture, and an error instead of "Use this photo" for an undecodable file', async function () {
      this.timeout(10_000);
      denyCamera();
      const { el } = await mount(passportAt('document'));
      const input = await until(
        () => deep<HTMLInputElement>(el, 'idv-document-step', 'idv-capture-view', 'input[type=file]'),
        3000,
        'file input',
      );
      chooseFile(input, brokenPhotoFile());
      const view = deep(el, 'idv-document-step', 'idv-capture-view') as Element;
      const alert = await until(() => deep(view, '[role="alert"]'), 3000, 'unreadable file');
      expect(alert.textContent?.trim()).to.equal(en.captureFileUnreadable);
      expect(buttons(view).some((b) => /Use this photo/.test(b.textContent ?? ''))).to.equal(false);

      // A tall picture (portrait photo of a page) is shown whole, not cropped to 16:9.
      const canvas = Object.assign(document.createElement('canvas'), { width: 300, height: 900 });
      const tall = await new Promise<Blob>((resolve) =>
        canvas.toBlob((b) => resolve(b as Blob), 'image/png'),
      );
      chooseFile(
        deep<HTMLInputElement>(view, 'input[type=file]')!,
        new File([tall], 'tall.png', { type: 'image/png' }),
      );
      const img = await until(() => deep<HTMLImageElement>(view, 'img[part~="preview"]'), 3000, 'preview');
      await until(() => img.complete && img.naturalWidth > 0, 3000, 'decoded');
      // Whole: scaled to fit (never cover), in a frame sized by the picture (no 16:9 box clipping it).
      const frame = img.parentElement as HTMLElement;
      expect(getComputedStyle(img).objectFit).to.equal('contain');
      expect(getComputedStyle(frame).aspectRatio).to.equal('auto');
      expect(frame.getBoundingClientRect().height).to.be.at.least(img.getBoundingClientRect().height - 1);
    });

    for (const how of ['ua-ch', 'pointer'] as const) {
      it(`hides "Continue on your phone" on a phone (${how})`, async () => {
        pretendPhone(how);
        const { el } = await mount(passportAt('document'));
        expect(buttons(el).some((b) => /Continue on your phone/.test(b.textContent ?? ''))).to.equal(false);
      });
    }

    it('Close without a redirect_url fires idv-exit and shows a closing screen (embedded and hosted)', async () => {
      for (const hosted of [false, true]) {
        const { el, events } = await mount(new FakeVerifyApi({ status: 'cancelled' }), { hosted });
        button(el, 'Close').click();
        await el.updateComplete;
        expect(events.filter((e) => e.type === 'idv-exit').map((e) => e.detail)).to.deep.equal([
          { status: 'cancelled' },
        ]);
        expect(heading(el)).to.equal(en.closedTitle);
        expect(bodyText(el)).to.include(
          hosted ? en.closedHostedBody : en.closedBody.replace('{tenant}', 'Acme Bank'),
        );
        await expect(el).to.be.accessible();
      }
    });

    it('Close with a redirect_url leaves the leaving to the host', async () => {
      const { el, events } = await mount(
        new FakeVerifyApi({ status: 'cancelled', redirect_url: 'https://shop.example/done' }),
      );
      button(el, 'Close').click();
      await el.updateComplete;
      expect(events.map((e) => e.type)).to.include('idv-exit');
      expect(heading(el)).to.equal(en.resultCancelledTitle);
    });

    it('"No, cancel" asks to confirm before cancelling', async () => {
      const api = new FakeVerifyApi();
      const { el } = await mount(api);
      const consent = deep(el, 'idv-consent-step') as Element;
      button(consent, en.consentDecline).click();
      await (consent as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      expect(
        api.calls.some((c) => c.method === 'giveConsent'),
        'nothing sent yet',
      ).to.equal(false);
      expect(consent.shadowRoot?.textContent).to.include(en.cancelConfirmTitle);
      expect(consent.shadowRoot?.activeElement?.textContent?.trim()).to.equal(en.cancelConfirmNo);
      await expect(el).to.be.accessible();
      button(consent, en.cancelConfirmNo).click();
      await (consent as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      expect(el.state.phase === 'step' && el.state.screen).to.equal('consent');
      button(consent, en.consentDecline).click();
      await (consent as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      button(consent, en.cancelConfirmYes).click();
      await until(() => el.state.phase === 'result' && el.state.status === 'cancelled', 3000, 'cancelled');
      expect(api.calls.find((c) => c.method === 'giveConsent')?.body).to.include({ accepted: false });
    });
  });

  describe('event order', () => {
    it('fires idv-ready first, once, before any idv-step-change', async () => {
      const { el, events } = await mount(new FakeVerifyApi());
      const types = events.map((e) => e.type);
      expect(types[0]).to.equal('idv-ready');
      expect(types.filter((t) => t === 'idv-ready')).to.have.length(1);
      expect(types.indexOf('idv-step-change')).to.be.greaterThan(0);
      expect(events[0]?.detail).to.deep.equal({
        session_id: 'sess_test',
        status: 'collecting',
        steps: ['consent', 'id_document'],
        sandbox: false,
      });
      // Reloads of the same token (another step, a poll) fire no second ready.
      await until(() => el.state.phase === 'step', 2000, 'step');
      expect(types.filter((t) => t === 'idv-ready')).to.have.length(1);
    });

    it('fires idv-ready again, first again, after a fresh link following idv-token-expired', async () => {
      const api = new FakeVerifyApi();
      api.failNext('getSession', 401, 'token_expired');
      const { el, events } = await mount(api);
      expect(events.map((e) => e.type)).to.deep.equal(['idv-error', 'idv-step-change', 'idv-token-expired']);
      events.length = 0;
      el.api = new FakeVerifyApi();
      await until(() => el.state.phase === 'step', 3000, 'resumed');
      const types = events.map((e) => e.type);
      expect(types[0]).to.equal('idv-ready');
      expect(types.filter((t) => t === 'idv-ready')).to.have.length(1);
      expect(types.slice(1).every((t) => t === 'idv-step-change')).to.equal(true);
    });

    it('ends with idv-complete after the steps', async function () {
      this.timeout(10_000);
      const api = new FakeVerifyApi({
        steps: [
          { step: 'consent', status: 'completed' },
          { step: 'id_document', status: 'completed' },
        ],
      });
      const { el, events } = await mount(api);
      button(deep(el, 'idv-review-step'), /Submit/).click();
      await until(() => events.some((e) => e.type === 'idv-complete'), 4000, 'complete');
      const types = events.map((e) => e.type);
      expect(types[0]).to.equal('idv-ready');
      expect(types.at(-1)).to.equal('idv-complete');
      expect(types.slice(1, -1).every((t) => t === 'idv-step-change')).to.equal(true);
    });
  });
});
