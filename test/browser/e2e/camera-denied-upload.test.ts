import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { chooseFile, deep, until } from '../support/dom.ts';
import {
  chooseDocumentType,
  clickButton,
  completion,
  confirmReadDetails,
  giveConsent,
  answerLivenessUntilAccepted,
  mountWidget,
  onScreen,
  submitOnReview,
  where,
} from './support/drive-widget.ts';
import { poseStill, specimen } from './support/fixture-files.ts';
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
    this.timeout(150_000);
    const passport = await specimen('passport-astronaut.jpg');
    const fields = passport.fields;
    if (!fields) throw new Error('the passport specimen states no fields');
    const session = await createSession({
      country: 'NLD',
      flow: 'user',
      tier: 'tier2',
      // The same end-user as face-camera-to-decision.test.ts (a second verification of one person).
      external_user_reference: 'e2e-astronaut',
    });
    const widget = mountWidget(session.verify_url);
    el = widget;
    const errors: string[] = [];
    widget.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));
    const completed = completion(widget, 140_000);

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

    // Liveness without a camera: one selfie file per prompted action, the astronaut doing each one.
    const attempts = await answerLivenessUntilAccepted(widget, async (live, actions) => {
      for (const [i, action] of actions.entries()) {
        const selfie = await until(
          () => deep<HTMLInputElement>(live, '#selfie'),
          6000,
          `selfie input ${i + 1}`,
        );
        chooseFile(selfie, await poseStill(action));
        await until(
          () => live.frames.length === i + 1 || where(widget) !== 'liveness',
          6000,
          `selfie ${i + 1}`,
        );
      }
    });
    const actions = attempts.at(-1) ?? [];

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
    // Decided by the real checks: the astronaut's selfies against the passport's portrait.
    const check = (type: string) => result.body.checks.find((c: { type: string }) => c.type === type);
    expect(check('liveness')?.status, JSON.stringify(check('liveness'))).to.equal('passed');
    expect(check('face_match')?.status, JSON.stringify(check('face_match'))).to.equal('passed');
    const uploads = await readEvidence(session.session_id);
    const documents = uploads.filter((u) => u.kind === 'document');
    expect(
      documents.map((u) => [u.side, u.stored.format, u.stored.width, u.stored.height]),
    ).to.have.deep.members([['front', 'jpeg', 1600, 1200]]);
    expect(uploads.filter((u) => u.kind === 'liveness_frame')).to.have.length(attempts.flat().length);
    expect(actions.length).to.be.greaterThan(0);
  });
});
