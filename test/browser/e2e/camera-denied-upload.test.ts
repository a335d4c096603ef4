import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { chooseFile, deep, until } from '../support/dom.ts';
import {
  chooseDocumentType,
  clickButton,
  completion,
  confirmDetails,
  giveConsent,
  livenessStep,
  mountWidget,
  onScreen,
  submitOnReview,
  where,
} from './support/drive-widget.ts';
import { documentPhoto, selfiePhoto } from './support/photos.ts';
import { createSession, readEvidence, readResult } from './support/tenant-server.ts';

/**
 * Runs in its own browser group (web-test-runner.config.mjs, `camera-denied`): Chromium launched with
 * `--use-fake-ui-for-media-stream=deny`, i.e. the browser's own permission prompt answering "Block".
 * The widget meets the real NotAllowedError of Chromium's media stack rather than a stubbed
 * getUserMedia (the component suite already covers the stub; a DevTools permission override does not
 * work here, the fake-UI switch of the main group wins over it). One more browser launch, ~1 s.
 */
describe('end to end: camera permission denied → upload fallback → decision', () => {
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

  it('completes a tier2 sandbox session by uploads and reaches the decision', async function () {
    this.timeout(60_000);
    const session = await createSession({
      country: 'FRA',
      flow: 'user',
      tier: 'tier2',
      external_user_reference: 'e2e-upload-user',
    });
    const widget = mountWidget(session.verify_url);
    el = widget;
    const errors: string[] = [];
    widget.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));
    const completed = completion(widget, 50_000);

    await giveConsent(widget);
    await chooseDocumentType(widget, 'id_card');
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

    for (const side of ['front', 'back'] as const) {
      await onScreen(widget, `document_${side}`);
      const input = await until(
        () => deep<HTMLInputElement>(widget, 'idv-document-step', 'idv-capture-view', 'input[type=file]'),
        6000,
        `${side} file input`,
      );
      chooseFile(input, await documentPhoto(side));
      const capture = () => deep(widget, 'idv-document-step', 'idv-capture-view');
      await clickButton(capture(), /Use this photo/, `"Use this photo" (${side})`);
    }

    await confirmDetails(widget, {
      first_name: 'Léa',
      last_name: 'Dubois',
      date_of_birth: '1988-09-02',
      document_number: 'E2EUPL001',
      expiry_date: '2033-01-31',
    });

    // Liveness without a camera: one selfie file per prompted action.
    const live = await livenessStep(widget);
    const actions = live.challenge?.actions ?? [];
    await clickButton(live, /Start/, 'liveness Start');
    for (let i = 0; i < actions.length; i++) {
      const input = await until(() => deep<HTMLInputElement>(live, '#selfie'), 6000, `selfie input ${i + 1}`);
      chooseFile(input, await selfiePhoto(i));
      await until(
        () => (live as unknown as { frames: Blob[] }).frames.length === i + 1 || where(widget) !== 'liveness',
        6000,
        `selfie ${i + 1} taken`,
      );
    }

    await submitOnReview(widget);
    const done = await completed;
    expect(done).to.deep.equal({ session_id: session.session_id, status: 'approved' });
    expect(errors.filter((code) => code !== 'camera_denied')).to.deep.equal([]);

    const result = await readResult(session.session_id);
    expect(result.body).to.deep.include({
      status: 'approved',
      decision: 'approved',
      decided_by: 'automated',
    });
    const uploads = await readEvidence(session.session_id);
    const documents = uploads.filter((u) => u.kind === 'document');
    expect(
      documents.map((u) => [u.side, u.stored.format, u.stored.width, u.stored.height]),
    ).to.have.deep.members([
      ['front', 'jpeg', 1600, 1000],
      ['back', 'jpeg', 1600, 1000],
    ]);
    expect(uploads.filter((u) => u.kind === 'liveness_frame')).to.have.length(actions.length);
  });
});
