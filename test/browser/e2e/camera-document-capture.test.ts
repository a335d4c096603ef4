import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { chromiumOnly } from '../support/engine.ts';
import {
  acceptPreview,
  chooseDocumentType,
  giveConsent,
  mountWidget,
  onScreen,
} from './support/drive-widget.ts';
import { createSession, readEvidence } from './support/tenant-server.ts';

/**
 * The document half of the camera path against the real server: the rear fake camera streams the
 * synthetic ID card (test/fixtures/fake-camera.ts), nobody presses the shutter, and what the server
 * stores is what the camera produced. The whole flow to a decision, with a real face for liveness, is
 * test/browser/e2e/face-camera-to-decision.test.ts (its own browser, the face camera).
 */
describe('end to end: document capture by the fake camera → stored evidence', () => {
  let el: IdVerifyElement | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
  });

  it('auto-captures both sides of an ID card and the server stores the camera frames as taken', async function () {
    chromiumOnly(this, "the ID card is in front of Chromium's file-fed camera only");
    // The first e2e command starts the server; each upload is read by the vision engine.
    this.timeout(180_000);
    const session = await createSession({
      country: 'FRA',
      flow: 'user',
      tier: 'tier2',
      external_user_reference: 'e2e-camera-document',
    });
    expect(session.required_steps).to.deep.equal(['consent', 'id_document', 'liveness']);
    expect(session.verify_url).to.match(/^http:\/\/localhost:\d+\/verify\/[^/]+$/);

    const widget = mountWidget(session.verify_url);
    el = widget;
    const errors: string[] = [];
    widget.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));

    await giveConsent(widget);
    await chooseDocumentType(widget, 'id_card');
    // Front and back: the on-device quality check fires the shutter after about a second of good frames.
    await onScreen(widget, 'document_front');
    await acceptPreview(widget);
    await onScreen(widget, 'document_back', 90_000);
    await acceptPreview(widget);
    // The server reads the back with the real engine, behind the other suites' reads on a loaded runner;
    // the card's MRZ-like block with its coloured header also gets the second, black-print look.
    await onScreen(widget, 'document_details', 90_000);
    expect(errors, 'no idv-error on the way').to.deep.equal([]);

    // What was stored are real JPEGs captured from the stream, at the encoder's size and budget.
    const uploads = await readEvidence(session.session_id);
    const documents = uploads.filter((u) => u.kind === 'document');
    expect(documents.map((u) => u.side).sort()).to.deep.equal(['back', 'front']);
    for (const upload of documents) {
      expect(upload.content_type).to.equal('image/jpeg');
      expect(upload.stored.format).to.equal('jpeg');
      expect([upload.stored.width, upload.stored.height]).to.deep.equal([1280, 720]);
      expect(upload.stored.bytes).to.be.within(40_000, 600_000);
      expect(upload.quality.ok, JSON.stringify(upload.quality)).to.equal(true);
    }
  });
});
