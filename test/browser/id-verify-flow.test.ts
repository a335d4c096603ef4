import { expect, fixture, html } from '@open-wc/testing';
import '../../src/id-verify.ts';
import type { IdVerifyElement } from '../../src/id-verify-element.ts';
import { en } from '../../src/i18n/en.ts';
import { canvasCamera } from './support/canvas-camera.ts';
import { chooseFile, deep, fill, screenOf, until } from './support/dom.ts';
import { FakeVerifyApi, photoFile } from './support/fake-verify-api.ts';

type Stub = { restore(): void };

/** Makes getUserMedia fail the way a denied permission prompt does. */
function denyCamera(): Stub {
  const media = navigator.mediaDevices;
  const original = media.getUserMedia;
  media.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  return { restore: () => (media.getUserMedia = original) };
}

async function mount(api: FakeVerifyApi, attrs: { locale?: string } = {}): Promise<IdVerifyElement> {
  const el = await fixture<IdVerifyElement>(
    html`<id-verify locale=${attrs.locale ?? 'en'} .api=${api} .pollInterval=${20}></id-verify>`,
  );
  await until(() => el.state.phase !== 'loading', 4000, 'session load');
  await el.updateComplete;
  return el;
}

function button(root: Element | null, text: RegExp): HTMLButtonElement {
  const scope = root?.shadowRoot ?? root;
  const found = [...(scope?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent ?? ''));
  if (!found) throw new Error(`no button ${text}`);
  return found;
}

async function giveConsent(el: IdVerifyElement): Promise<void> {
  const step = await until(() => deep(el, 'idv-consent-step'), 2000, 'consent step');
  const box = deep<HTMLInputElement>(step, '#agree');
  box?.click();
  await (step as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  button(step, /Agree/).click();
  await until(() => el.state.phase === 'step' && el.state.screen !== 'consent', 2000, 'leaving consent');
  await el.updateComplete;
}

/** Uploads a file on the current capture screen (upload mode) and accepts the preview. */
async function uploadOnCaptureScreen(el: IdVerifyElement, stepTag: string): Promise<void> {
  const input = await until(
    () => deep<HTMLInputElement>(el, stepTag, 'idv-capture-view', 'input[type=file]'),
    3000,
    'file input',
  );
  chooseFile(input, photoFile());
  const view = deep(el, stepTag, 'idv-capture-view') as Element;
  const use = await until(
    () =>
      [...(view.shadowRoot?.querySelectorAll('button') ?? [])].find((b) =>
        /Use this photo/.test(b.textContent ?? ''),
      ),
    3000,
    'preview',
  );
  use.click();
}

describe('<id-verify> flow', () => {
  let stub: Stub | null = null;
  afterEach(() => {
    stub?.restore();
    stub = null;
  });

  it('completes a tier2 flow by upload when camera permission is denied, the selfie by camera once allowed', async function () {
    this.timeout(30_000);
    stub = denyCamera();
    const api = new FakeVerifyApi({ required_steps: ['consent', 'id_document', 'liveness'], tier: 'tier2' });
    api.extracted = { first_name: 'JEAN', last_name: 'DUPONT', document_number: 'X1234567' };
    const events: string[] = [];
    const completions: unknown[] = [];
    const errors: string[] = [];
    const host = document.createElement('div');
    for (const name of ['idv-ready', 'idv-step-change', 'idv-complete'])
      host.addEventListener(name, () => events.push(name));
    host.addEventListener('idv-complete', (e) => completions.push((e as CustomEvent).detail));
    host.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));
    document.body.append(host);
    const el = document.createElement('id-verify');
    el.api = api;
    el.pollInterval = 20;
    el.locale = 'en';
    host.append(el);
    try {
      await until(() => el.state.phase === 'step', 4000, 'first screen');
      expect(events).to.include('idv-ready');
      await giveConsent(el);
      expect(api.calls.find((c) => c.method === 'giveConsent')?.body).to.include({
        accepted: true,
        locale: 'en',
      });

      // Two accepted types: the end-user chooses.
      const choice = await until(
        () => deep<HTMLButtonElement>(el, 'idv-document-step', 'button[data-type="id_card"]'),
        2000,
        'type choice',
      );
      choice.click();
      await until(() => el.state.phase === 'step' && el.state.screen === 'document_front', 2000, 'front');

      // The camera is denied: the flow switches to upload and says why.
      await until(
        () => el.state.phase === 'step' && el.state.ctx.cameraIssue === 'denied',
        3000,
        'camera denied',
      );
      expect(errors).to.include('camera_denied');
      await uploadOnCaptureScreen(el, 'idv-document-step');
      await until(() => el.state.phase === 'step' && el.state.screen === 'document_back', 3000, 'back side');
      await uploadOnCaptureScreen(el, 'idv-document-step');
      await until(() => el.state.phase === 'step' && el.state.screen === 'document_details', 3000, 'details');
      expect(api.uploads.map((u) => [u.document_type, u.side, u.issuing_country])).to.deep.equal([
        ['id_card', 'front', 'FRA'],
        ['id_card', 'back', 'FRA'],
      ]);

      // Prefilled from what the server read; the end-user completes the rest.
      const first = await until(
        () => deep<HTMLInputElement>(el, 'idv-document-step', '#first_name'),
        2000,
        'form',
      );
      expect(first.value).to.equal('JEAN');
      const form = deep(el, 'idv-document-step') as Element;
      fill(deep<HTMLInputElement>(form, '#date_of_birth')!, '1990-04-12');
      fill(deep<HTMLInputElement>(form, '#expiry_date')!, '2031-01-01');
      button(form, /Confirm details/).click();
      await until(() => el.state.phase === 'step' && el.state.screen === 'liveness', 3000, 'liveness');
      expect(api.calls.find((c) => c.method === 'putDetails')?.body).to.deep.include({
        step: 'id_document',
        first_name: 'JEAN',
        nationality: 'FRA',
        date_of_birth: '1990-04-12',
      });

      // The selfie check never takes files: without a camera it asks for one and offers the phone.
      const live = await until(() => deep(el, 'idv-liveness-step'), 4000, 'liveness chunk');
      const startButton = () =>
        [...(live.shadowRoot?.querySelectorAll('button') ?? [])].find(
          (x) => /Start|Try again/.test(x.textContent ?? '') && !x.disabled,
        );
      (await until(startButton, 3000, 'start enabled')).click();
      await until(() => deep(live, '[role="alert"]'), 3000, 'needs a camera');
      expect(deep(live, 'input[type=file]'), 'no selfie files').to.equal(null);
      expect(() => button(el, /Continue on your phone/)).to.not.throw();

      // The end-user allows the camera and tries again: frames from the (fake) camera.
      stub?.restore();
      // A camera whose picture moves, as a person's does: Firefox's and WebKit's own fake cameras show an
      // all but still picture, whose frames the widget rightly refuses to send as repeated.
      stub = canvasCamera({ drifting: true });
      (await until(startButton, 3000, 'Try again')).click();
      const sent = () => api.calls.some((c) => c.method === 'submitLiveness');
      while (!sent()) {
        const shutter = await until(
          () => deep<HTMLButtonElement>(live, 'button[part~="shutter"]'),
          8000,
          'shutter',
        );
        if (!shutter.disabled) shutter.click();
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await until(() => el.state.phase === 'step' && el.state.screen === 'review', 3000, 'review');
      const frames = api.calls.find((c) => c.method === 'submitLiveness')?.body as { frames: Blob[] };
      expect(frames.frames).to.have.length(2);

      const review = await until(() => deep(el, 'idv-review-step'), 2000, 'review step');
      button(review, /Submit/).click();
      await until(() => el.state.phase === 'result' && el.state.status === 'approved', 4000, 'decision');
      expect(completions).to.deep.equal([{ session_id: 'sess_test', status: 'approved' }]);
      expect(events.filter((e) => e === 'idv-step-change').length).to.be.greaterThan(6);
    } finally {
      host.remove();
    }
  });

  it('asks for a retake when the server reports quality issues', async () => {
    stub = denyCamera();
    const api = new FakeVerifyApi({
      accepted_document_types: ['passport'],
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'pending' },
      ],
    });
    api.qualityIssues = [['glare', 'blurry']];
    const el = await mount(api);
    expect(el.state.phase === 'step' && el.state.screen).to.equal('document_front');
    await until(() => el.state.phase === 'step' && el.state.ctx.cameraIssue, 3000, 'upload fallback');
    await uploadOnCaptureScreen(el, 'idv-document-step');
    const alert = await until(() => deep(el, 'idv-document-step', '[role="alert"]'), 3000, 'retake alert');
    expect(alert.textContent).to.match(/retake/i);
    expect(alert.textContent).to.match(/glare/i);
    expect(el.state.phase === 'step' && el.state.screen).to.equal('document_front');
    await uploadOnCaptureScreen(el, 'idv-document-step');
    await until(
      () => el.state.phase === 'step' && el.state.screen === 'document_details',
      3000,
      'details after retake',
    );
  });

  describe('details read off the document', () => {
    const READ = {
      first_name: 'ANNA MARIA',
      last_name: 'ERIKSSON',
      date_of_birth: '1974-08-12',
      nationality: 'UTO',
      document_number: 'L898902C3',
      expiry_date: '2032-04-15',
    };

    async function toDetails(api: FakeVerifyApi): Promise<IdVerifyElement> {
      stub = denyCamera();
      const el = await mount(api);
      await until(() => el.state.phase === 'step' && el.state.ctx.cameraIssue, 3000, 'upload fallback');
      await uploadOnCaptureScreen(el, 'idv-document-step');
      await until(() => el.state.phase === 'step' && el.state.screen === 'document_details', 3000, 'details');
      return el;
    }

    function passportSession() {
      return new FakeVerifyApi({
        required_steps: ['consent', 'id_document', 'liveness'],
        accepted_document_types: ['passport'],
        steps: [
          { step: 'consent', status: 'completed' },
          { step: 'id_document', status: 'pending' },
          { step: 'liveness', status: 'pending' },
        ],
      });
    }

    it('shows what was read instead of the form when no details are required, and sends none', async () => {
      const api = passportSession();
      api.readOnUpload = { source: 'mrz', details: READ, details_required: false };
      const el = await toDetails(api);
      const step = deep(el, 'idv-document-step') as Element;
      await until(() => deep(step, 'dl.read'), 3000, 'summary');
      expect(deep(step, 'h2')?.textContent).to.equal('Is this correct?');
      expect(deep(step, 'form'), 'no form').to.equal(null);
      const text = deep(step, 'dl.read')?.textContent?.replace(/\s+/g, ' ') ?? '';
      for (const value of ['ANNA MARIA', 'ERIKSSON', 'L898902C3', 'UTO', 'August 12, 1974', 'April 15, 2032'])
        expect(text).to.include(value);
      await expect(el).to.be.accessible();
      button(step, /Yes, continue/).click();
      await until(() => el.state.phase === 'step' && el.state.screen === 'liveness', 3000, 'liveness');
      expect(api.calls.filter((c) => c.method === 'putDetails')).to.deep.equal([]);
    });

    it('opens the prefilled form when the end-user says something is wrong, and sends their correction', async () => {
      const api = passportSession();
      api.readOnUpload = { source: 'mrz', details: READ, details_required: false };
      const el = await toDetails(api);
      const step = deep(el, 'idv-document-step') as Element;
      await until(() => deep(step, 'dl.read'), 3000, 'summary');
      button(step, /Something is wrong/).click();
      const first = await until(() => deep<HTMLInputElement>(step, '#first_name'), 2000, 'form');
      expect(step.shadowRoot?.activeElement).to.equal(first);
      expect(first.value).to.equal('ANNA MARIA');
      expect(deep<HTMLInputElement>(step, '#date_of_birth')?.value).to.equal('1974-08-12');
      expect(deep(step, '#prefilled-note')?.textContent?.trim()).to.equal(en.detailsPrefilledNote);
      fill(first, 'ANNA');
      button(step, /Confirm details/).click();
      await until(() => el.state.phase === 'step' && el.state.screen === 'liveness', 3000, 'liveness');
      expect(api.calls.find((c) => c.method === 'putDetails')?.body).to.deep.include({
        first_name: 'ANNA',
        last_name: 'ERIKSSON',
        nationality: 'UTO',
        expiry_date: '2032-04-15',
      });
    });

    it('prefills the form with what was read when details are still required', async () => {
      const api = passportSession();
      api.readOnUpload = {
        source: 'barcode',
        details: { first_name: 'ANNA', last_name: 'ERIKSSON', date_of_birth: '1974-08-12' },
        details_required: true,
      };
      const el = await toDetails(api);
      const step = deep(el, 'idv-document-step') as Element;
      const first = await until(() => deep<HTMLInputElement>(step, '#first_name'), 3000, 'form');
      expect(first.value).to.equal('ANNA');
      expect(deep<HTMLInputElement>(step, '#date_of_birth')?.value).to.equal('1974-08-12');
      expect(deep<HTMLInputElement>(step, '#document_number')?.value).to.equal('');
      expect(deep<HTMLInputElement>(step, '#nationality')?.value).to.equal('FRA');
      expect(deep(step, 'dl.read')).to.equal(null);
      expect(deep(step, '#prefilled-note')?.textContent?.trim()).to.equal(en.detailsPrefilledNote);
      await expect(el).to.be.accessible();
      // Read values stay editable: the end-user's correction is what is sent.
      const last = deep<HTMLInputElement>(step, '#last_name') as HTMLInputElement;
      expect(first.readOnly || first.disabled, 'first name editable').to.equal(false);
      expect(last.readOnly || last.disabled, 'last name editable').to.equal(false);
      fill(last, 'ERIKSSON-LUND');
      fill(deep<HTMLInputElement>(step, '#document_number') as HTMLInputElement, 'L898902C3');
      fill(deep<HTMLInputElement>(step, '#expiry_date') as HTMLInputElement, '2032-04-15');
      button(step, /Confirm details/).click();
      await until(() => el.state.phase === 'step' && el.state.screen === 'liveness', 3000, 'liveness');
      expect(api.calls.find((c) => c.method === 'putDetails')?.body).to.deep.include({
        first_name: 'ANNA',
        last_name: 'ERIKSSON-LUND',
        date_of_birth: '1974-08-12',
        nationality: 'FRA',
        document_number: 'L898902C3',
        expiry_date: '2032-04-15',
      });
    });

    it('shows no note about the document when nothing was read off it', async () => {
      const el = await toDetails(passportSession());
      const step = deep(el, 'idv-document-step') as Element;
      const first = await until(() => deep<HTMLInputElement>(step, '#first_name'), 3000, 'form');
      expect(first.value).to.equal('');
      // The session's country fills nationality, but that is not a reading of the document.
      expect(deep<HTMLInputElement>(step, '#nationality')?.value).to.equal('FRA');
      expect(deep(step, '#prefilled-note')).to.equal(null);
    });
  });

  it('says so and goes back to capture when the photo is not the chosen document', async () => {
    stub = denyCamera();
    const api = new FakeVerifyApi({
      accepted_document_types: ['passport'],
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'pending' },
      ],
    });
    api.failWith('uploadDocument', 422, {
      code: 'document_type_mismatch',
      seen: 'selfie',
      user_message: 'This looks like a photo of a face, not of your passport.',
    });
    const el = await mount(api);
    await until(() => el.state.phase === 'step' && el.state.ctx.cameraIssue, 3000, 'upload fallback');
    await uploadOnCaptureScreen(el, 'idv-document-step');
    const alert = await until(() => deep(el, 'idv-document-step', '[role="alert"]'), 3000, 'alert');
    // The widget's own wording of the code (in its language), not the server's English.
    expect(alert.textContent).to.include(en.mismatchSelfie);
    await until(
      () => deep(el, 'idv-document-step', 'idv-capture-view', 'input[type=file]'),
      3000,
      'capture again',
    );
    expect(deep(el, 'idv-document-step', 'idv-capture-view', 'img[part~="preview"]')).to.equal(null);
    expect(el.state.phase === 'step' && el.state.screen).to.equal('document_front');
    await uploadOnCaptureScreen(el, 'idv-document-step');
    await until(() => el.state.phase === 'step' && el.state.screen === 'document_details', 3000, 'details');
  });

  it('fires idv-token-expired on a 401 and resumes when given a fresh link', async () => {
    const api = new FakeVerifyApi();
    const expired: unknown[] = [];
    api.failNext('getSession', 401, 'token_expired');
    const el = await fixture<IdVerifyElement>(
      html`<id-verify locale="en" @idv-token-expired=${(e: CustomEvent) => expired.push(e.detail)} .api=${api}></id-verify>`,
    );
    await until(() => el.state.phase === 'expired', 3000, 'expired screen');
    expect(expired).to.deep.equal([{ code: 'verify_token_expired', reason: 'token_expired' }]);
    await el.updateComplete;
    expect(screenOf(el).textContent ?? el.shadowRoot?.textContent).to.match(/expired/);
    el.api = new FakeVerifyApi();
    await until(() => el.state.phase === 'step', 3000, 'resumed');
    expect(el.state.phase === 'step' && el.state.screen).to.equal('consent');
  });

  it('shows the session-expired screen on 410 session_expired', async () => {
    const api = new FakeVerifyApi();
    api.failNext('getSession', 410, 'session_expired');
    const el = await fixture<IdVerifyElement>(html`<id-verify locale="en" .api=${api}></id-verify>`);
    await until(() => el.state.phase === 'expired', 3000, 'expired');
    expect(el.state.phase === 'expired' && el.state.reason).to.equal('session_expired');
  });

  it('offers a retry after a network failure and loads on retry', async () => {
    const api = new FakeVerifyApi();
    api.failNext('getSession', 0, 'network_error');
    const el = await fixture<IdVerifyElement>(html`<id-verify locale="en" .api=${api}></id-verify>`);
    await until(() => el.state.phase === 'offline', 3000, 'offline');
    await el.updateComplete;
    button(el, /Try again/).click();
    await until(() => el.state.phase === 'step', 3000, 'loaded after retry');
  });

  it('holds a step change cancelled in idv-before-step-change until proceed()', async () => {
    const api = new FakeVerifyApi({ accepted_document_types: ['passport'] });
    const el = await mount(api);
    let veto = true;
    el.addEventListener('idv-before-step-change', (e) => {
      if (veto) e.preventDefault();
    });
    await giveConsent(el).catch(() => undefined);
    expect(el.state.phase === 'step' && el.state.screen).to.equal('consent');
    veto = false;
    el.proceed();
    expect(el.state.phase === 'step' && el.state.screen).to.equal('document_front');
  });

  it('shows the sandbox banner and sends the picked outcome', async () => {
    const api = new FakeVerifyApi({
      sandbox: true,
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'completed' },
      ],
    });
    const el = await mount(api);
    // Honest: sandbox runs the real checks; only the outcome may be forced.
    const banner = el.shadowRoot?.querySelector('[part~="sandbox-banner"]')?.textContent ?? '';
    expect(banner).to.equal(en.sandboxBanner);
    expect(banner).to.not.match(/no real checks/i);
    expect(banner).to.match(/checked/);
    const review = deep(el, 'idv-review-step') as Element;
    await (review as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const select = deep<HTMLSelectElement>(review, '#outcome')!;
    select.value = 'rejected';
    select.dispatchEvent(new Event('change'));
    button(review, /Submit/).click();
    await until(
      () => el.state.phase === 'result' && el.state.status === 'rejected',
      3000,
      'sandbox decision',
    );
    expect(api.calls.find((c) => c.method === 'complete')?.body).to.equal('rejected');
  });

  it('renders Arabic right to left with the step count translated', async () => {
    const el = await mount(new FakeVerifyApi(), { locale: 'ar' });
    await until(
      () => el.shadowRoot?.querySelector('[part~="base"]')?.getAttribute('dir') === 'rtl',
      3000,
      'rtl',
    );
    const base = el.shadowRoot?.querySelector('[part~="base"]');
    expect(base?.getAttribute('lang')).to.equal('ar');
    expect(el.shadowRoot?.querySelector('[part~="progress"]')?.textContent).to.equal('الخطوة 1 من 3');
  });

  it('says the link is missing when given neither verify-url nor token', async () => {
    const errors: string[] = [];
    const el = await fixture<IdVerifyElement>(
      html`<id-verify locale="en" @idv-error=${(e: CustomEvent) => errors.push(e.detail.code)}></id-verify>`,
    );
    await until(() => errors.length > 0, 2000, 'missing_token');
    expect(errors).to.deep.equal(['missing_token']);
    await el.updateComplete;
    expect(el.shadowRoot?.textContent).to.match(/incomplete/);
  });

  it('shows a QR code of the handoff link and follows the phone to the result', async () => {
    const api = new FakeVerifyApi({
      accepted_document_types: ['passport'],
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'pending' },
      ],
    });
    const el = await mount(api);
    button(el, /Continue on your phone/).click();
    const path = await until(() => deep(el, 'idv-handoff-view', 'svg[part~="qr"] path'), 3000, 'qr');
    expect(path.getAttribute('d')?.length).to.be.greaterThan(200);
    // The phone finishes everything and submits.
    api.session = {
      ...api.session,
      status: 'processing',
      steps: api.session.steps?.map((s) => ({ ...s, status: 'completed' })),
    };
    await until(
      () => el.state.phase === 'result' && el.state.status === 'approved',
      4000,
      'followed to decision',
    );
  });
});
