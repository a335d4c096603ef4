import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { chooseFile, deep, until } from '../support/dom.ts';
import {
  chooseDocumentType,
  clickButton,
  confirmReadDetails,
  giveConsent,
  mountWidget,
  onScreen,
} from './support/drive-widget.ts';
import { specimen } from './support/fixture-files.ts';
import { createSession, readEvidence, readSession } from './support/tenant-server.ts';

/**
 * Runs in its own browser group (web-test-runner.config.mjs, `camera-denied`): Chromium launched with
 * `--use-fake-ui-for-media-stream=deny`, i.e. the browser's own permission prompt answering "Block".
 * The widget meets the real NotAllowedError of Chromium's media stack rather than a stubbed
 * getUserMedia (the component suite already covers the stub; a DevTools permission override does not
 * work here, the fake-UI switch of the main group wins over it). One more browser launch, ~1 s.
 */
describe('end to end: camera permission denied → document by upload, selfie needs a camera', () => {
  let el: IdVerifyElement | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
  });

  it('really denies the camera to the page', async () => {
    const error = await navigator.mediaDevices.getUserMedia({ video: true }).then(
      (stream) => {
        for (const track of stream.getTracks()) track.stop();
        return null;
      },
      (e: DOMException) => e,
    );
    expect(
      error?.name,
      'this suite needs the browser whose prompt blocks the camera: npx web-test-runner --group camera-denied',
    ).to.equal('NotAllowedError');
  });

  it('takes the passport by upload, then asks for a camera (or the phone) for the selfie, never files', async function () {
    // The real server reads the passport (its vision worker, models loaded on first use): about 10 s on a
    // quiet 2-core machine, past 60 s on a slow loaded one, as camera-document-capture.test.ts allows.
    this.timeout(180_000);
    const passport = await specimen('passport-astronaut.jpg');
    const fields = passport.fields;
    if (!fields) throw new Error('the passport specimen states no fields');
    const session = await createSession({
      country: 'NLD',
      flow: 'user',
      tier: 'tier2',
      // The same end-user as face-camera-to-decision.test.ts: one person's passport under one reference
      // (under another, the same document number there would read as a duplicate identity).
      external_user_reference: 'e2e-astronaut',
    });
    const widget = mountWidget(session.verify_url);
    el = widget;
    const errors: string[] = [];
    widget.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));

    await giveConsent(widget);
    await chooseDocumentType(widget, 'passport');
    await onScreen(widget, 'document_front');
    // The widget asked for the camera, was refused, says so and offers the file picker instead.
    await until(
      () => widget.state.phase === 'step' && widget.state.ctx.cameraIssue === 'denied',
      8000,
      'camera denied noticed',
    );
    expect(errors).to.include('camera_denied');
    const view = deep(widget, 'idv-document-step', 'idv-capture-view');
    expect(view?.shadowRoot?.querySelector('video'), 'no camera preview').to.equal(null);

    // A photo of the passport from the end-user's files (a specimen with the astronaut's portrait).
    const input = await until(
      () => deep<HTMLInputElement>(widget, 'idv-document-step', 'idv-capture-view', 'input[type=file]'),
      6000,
      'passport file input',
    );
    chooseFile(input, passport.photo);
    const capture = () => deep(widget, 'idv-document-step', 'idv-capture-view');
    await clickButton(capture(), /Use this photo/, '"Use this photo"');

    await confirmReadDetails(widget, {
      first_name: fields.first_name,
      last_name: fields.last_name,
      date_of_birth: fields.date_of_birth,
      document_number: fields.document_number,
      expiry_date: fields.expiry_date,
    });

    // Liveness: the file choice for the document does not carry over; the browser still blocks the
    // camera, so the step says a live camera is needed and the phone is offered, with no file input.
    await onScreen(widget, 'liveness');
    const live = await until(() => deep(widget, 'idv-liveness-step'), 8000, 'liveness step');
    await clickButton(live, /Start/, 'Start', 8000);
    const alert = await until(() => deep(live, '[role="alert"]'), 8000, 'needs a camera');
    expect(alert.textContent).to.match(/live camera/);
    expect(deep(live, 'input[type=file]'), 'no selfie files').to.equal(null);
    await clickButton(widget, /Continue on your phone/, '"Continue on your phone"');
    await until(
      () => deep(widget, 'idv-handoff-view', 'svg[part~="qr"] path'),
      8000,
      'QR of the handoff link',
    );

    // Nothing was taken for the selfie check: its step is still open on the server.
    const uploads = await readEvidence(session.session_id);
    expect(uploads.filter((u) => u.kind === 'liveness_frame')).to.deep.equal([]);
    const read = await readSession(session.session_id);
    const liveness = read.body.steps.find((s: { step: string }) => s.step === 'liveness');
    expect(liveness.status).to.equal('pending');
  });
});
